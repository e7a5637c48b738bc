// The Android entry point. SDL's Java activity (EsviewActivity) loads libSDL2.so and libmain.so and
// calls SDL_main on its own thread with the arguments getArguments() gave: the model to open and
// --gles2 on a device without OpenGL ES 3. The viewer runs as `esview --host sdl` does on Linux.
#include <SDL.h>
#include <SDL_main.h>  // renames main to SDL_main, the symbol SDL's activity looks up

#include <cstdlib>
#include <vector>

#include <unistd.h>

#include "app/cli/commands.h"

int main(int argc, char* argv[]) {
    // Recent files and the window layout (file_browser.cpp) go to the app's internal storage: an
    // Android process has no HOME or XDG_CONFIG_HOME.
    if (const char* dir = SDL_AndroidGetInternalStoragePath()) setenv("ESVIEW_CONFIG_DIR", dir, 1);
    // The file browser opens in the working folder: shared storage (/sdcard) rather than "/".
    if (const char* shared = std::getenv("EXTERNAL_STORAGE"); shared && chdir(shared) != 0)
        SDL_Log("esview: cannot enter %s", shared);
    static char host[] = "--host", sdl[] = "sdl";
    std::vector<char*> args(argv, argv + argc);  // argv[0] is "app_process"
    args.insert(args.begin() + 1, {host, sdl});
    args.push_back(nullptr);
    return esv::runCommandLine(int(args.size()) - 1, args.data());
}
