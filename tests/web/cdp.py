"""A small client of Chromium's DevTools protocol over --remote-debugging-pipe (file descriptors 3
and 4, messages as JSON ended by a NUL byte), Python's standard library only: enough for the browser
tests to open a page, run JavaScript in it, dispatch input and read its console.

    with Browser(chromium, ["--use-angle=swiftshader", ...]) as browser:
        page = browser.open_page()
        page.navigate(url)
        page.wait_console(lambda line: line.startswith("esview: loaded "), 60)
        page.evaluate("1 + 1")  # 2
"""
import json
import os
import select
import subprocess
import tempfile
import time


class ProtocolError(RuntimeError):
    pass


class Browser:
    def __init__(self, chromium, flags=(), profile_dir=None):
        self._profile = profile_dir or tempfile.mkdtemp(prefix="esview-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def child_fds():
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        cmd = [chromium, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", "--no-first-run",
               "--user-data-dir=" + self._profile, *flags, "about:blank"]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     pass_fds=(3, 4), preexec_fn=child_fds)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self._events = []  # (sessionId, method, params) not yet taken

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send("Browser.close", {}, None)
            except OSError:
                pass
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def _send(self, method, params, session):
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        return self._next_id

    def _read(self, deadline):
        """The next message, or None at the deadline."""
        while b"\0" not in self._buffer:
            left = deadline - time.time()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise ProtocolError("Chromium closed the DevTools pipe (exit code %s)" % self.proc.poll())
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None, timeout=60):
        """Sends a command and returns its result; events that arrive meanwhile are kept."""
        wanted = self._send(method, params or {}, session)
        deadline = time.time() + timeout
        while True:
            message = self._read(deadline)
            if message is None:
                raise ProtocolError("no answer to %s in %d s" % (method, timeout))
            if message.get("id") == wanted:
                if "error" in message:
                    raise ProtocolError("%s: %s" % (method, message["error"].get("message")))
                return message.get("result", {})
            if "method" in message:
                self._events.append((message.get("sessionId"), message["method"], message.get("params", {})))

    def call_all(self, commands, session=None, timeout=60):
        """Sends several (method, params) commands at once, without waiting between them (input
        events then reach the page as close together as the browser takes them), and returns their
        results in order."""
        wanted = [self._send(method, params or {}, session) for method, params in commands]
        results = {}
        deadline = time.time() + timeout
        while len(results) < len(wanted):
            message = self._read(deadline)
            if message is None:
                raise ProtocolError("no answer to %d commands in %d s" % (len(wanted) - len(results), timeout))
            if message.get("id") in wanted:
                if "error" in message:
                    raise ProtocolError("%s" % message["error"].get("message"))
                results[message["id"]] = message.get("result", {})
            elif "method" in message:
                self._events.append((message.get("sessionId"), message["method"], message.get("params", {})))
        return [results[i] for i in wanted]

    def next_event(self, session, deadline):
        """The next event of `session` as (method, params), or None at the deadline."""
        while True:
            for i, (s, method, params) in enumerate(self._events):
                if s == session:
                    del self._events[i]
                    return method, params
            message = self._read(deadline)
            if message is None:
                return None
            if "method" in message:
                self._events.append((message.get("sessionId"), message["method"], message.get("params", {})))

    def open_page(self):
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        target = page["targetId"] if page else self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, session)


class Page:
    """One tab: its console lines (console API and log entries, as text) are collected as they come."""

    def __init__(self, browser, session):
        self.browser = browser
        self.session = session
        self.console = []
        for domain in ("Runtime", "Log", "Page"):
            self.call(domain + ".enable")

    def call(self, method, params=None, timeout=60):
        return self.browser.call(method, params, self.session, timeout)

    def _take(self, method, params):
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append(text)
        elif method == "Log.entryAdded":
            entry = params.get("entry", {})
            self.console.append("%s: %s %s" % (entry.get("source"), entry.get("text", ""), entry.get("url", "")))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.console.append("Uncaught " + str(details.get("exception", {}).get("description", details.get("text"))))

    def pump(self, seconds):
        """Collects events for `seconds`."""
        deadline = time.time() + seconds
        while True:
            event = self.browser.next_event(self.session, deadline)
            if event is None:
                return
            self._take(*event)

    def wait_console(self, predicate, timeout):
        """The first console line (old or new) for which predicate holds, or None after `timeout` s."""
        seen = 0
        deadline = time.time() + timeout
        while True:
            for line in self.console[seen:]:
                if predicate(line):
                    return line
            seen = len(self.console)
            event = self.browser.next_event(self.session, deadline)
            if event is None:
                return None
            self._take(*event)

    def call_all(self, commands, timeout=60):
        return self.browser.call_all(commands, self.session, timeout)

    def navigate(self, url):
        self.call("Page.navigate", {"url": url})

    def evaluate(self, expression, timeout=60):
        """The value of a JavaScript expression (a Promise is awaited); raises on an exception."""
        result = self.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True,
                                                "returnByValue": True}, timeout)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise ProtocolError("JavaScript: " + str(details.get("exception", {}).get("description", details.get("text"))))
        return result.get("result", {}).get("value")
