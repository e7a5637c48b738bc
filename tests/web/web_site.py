"""The browser tests' web site: a folder holding the built page (esview.html, .js, .wasm) and, as
links, whatever a test serves beside it, served on 127.0.0.1 by Python's own HTTP server (which
lists folders, as the page's texture lookup can use)."""
import functools
import http.server
import os
import shutil
import threading

PAGE_FILES = ("esview.html", "esview.js", "esview.wasm")


def page_built(web_dir):
    return all(os.path.exists(os.path.join(web_dir, f)) for f in PAGE_FILES)


def make_site(work, web_dir, links=None):
    """A fresh folder `work`/site with the page's files and `links` ({name: target}) linked in."""
    root = os.path.join(work, "site")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    for f in PAGE_FILES:
        os.symlink(os.path.abspath(os.path.join(web_dir, f)), os.path.join(root, f))
    for name, target in (links or {}).items():
        os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
        os.symlink(os.path.abspath(target), os.path.join(root, name))
    return root


def serve(root):
    """A quiet HTTP server of `root` on a free port of 127.0.0.1, in a thread; .shutdown() ends it."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server
