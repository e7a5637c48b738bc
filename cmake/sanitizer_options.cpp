// Sanitizer builds only: defaults the sanitizer runtime reads at start-up, compiled into every
// executable (cmake/warnings.cmake), so a test binary run by hand behaves as it does under ctest.
// ASAN_OPTIONS set in the environment still override them one by one.
//
// intercept_tls_get_addr=0: the __tls_get_addr interceptor of GCC 12's runtime (and LLVM's up to
// 16) takes a dynamic TLS block that happens to start 16 bytes into a page for a pre-2.25 glibc
// block with a header, and reads the two words before it as that block's address and size. The
// graphics driver's threads allocate such blocks, and LeakSanitizer's tracer then scans a garbage
// range at exit and dies ("Tracer caught signal 11") after the test itself has passed, at random.
// Without the interceptor, dynamic TLS is not scanned for pointers; nothing of ours keeps heap
// memory reachable only from thread_local storage of a dlopen'ed library.
extern "C" const char* __asan_default_options() { return "intercept_tls_get_addr=0"; }
