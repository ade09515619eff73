#!/usr/bin/env python3
"""Times `notes lsp` on a vault, speaking framed JSON-RPC to it as an editor would.

    lsp-bench.py NOTES VAULT HUB [--runs N] [--idle SECONDS]

NOTES is the binary, VAULT a vault whose index is fresh, HUB the file name (without .md) of a
note with many backlinks. Prints one `key value` line per figure (milliseconds unless named):
initialize (answered, from the process's start), first (the first request answered, the catalog
read), completion (after `[[` and three letters, median; `n/a` when the server has no
completion), definition, hover, references (of the hub, median) with their count, diagnostics
(of an open note with 1,000 links, from a change to the notification, median), rss_kb, and
idle_cpu (percent of one core over SECONDS without a message). Not part of `swift test`.
"""
import json
import os
import select
import statistics
import subprocess
import sys
import time
import urllib.parse


class Server:
    def __init__(self, notes, vault):
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [notes, "--vault", vault, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self.out = self.process.stdout.fileno()
        self.buffer = b""
        self.next_id = 1
        self.kept = []

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def read(self, timeout=120):
        deadline = time.monotonic() + timeout
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = None
                for line in self.buffer[:end].split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is not None and len(self.buffer) >= end + 4 + length:
                    body = self.buffer[end + 4:end + 4 + length]
                    self.buffer = self.buffer[end + 4 + length:]
                    return json.loads(body)
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.out], [], [], left)[0]:
                raise SystemExit("lsp-bench: the server did not answer in time")
            chunk = os.read(self.out, 1 << 20)
            if not chunk:
                raise SystemExit("lsp-bench: the server ended")
            self.buffer += chunk

    def request(self, method, params):
        """The response and the milliseconds it took."""
        request_id = self.next_id
        self.next_id += 1
        start = time.monotonic()
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        while True:
            message = self.read()
            if message.get("id") == request_id and "method" not in message:
                return message, (time.monotonic() - start) * 1000
            if "method" in message:
                self.kept.append(message)

    def wait(self, method, uri):
        while True:
            message = self.read()
            if message.get("method") == method and message.get("params", {}).get("uri") == uri:
                return message

    def cpu_ticks(self):
        with open("/proc/%d/stat" % self.process.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    def rss_kb(self):
        with open("/proc/%d/status" % self.process.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def uri(path):
    return "file://" + urllib.parse.quote(path)


def at(document, line, character):
    return {"textDocument": {"uri": document}, "position": {"line": line, "character": character}}


def main():
    args = sys.argv[1:]
    runs, idle = 21, 60.0
    if "--runs" in args:
        i = args.index("--runs")
        runs = int(args[i + 1])
        del args[i:i + 2]
    if "--idle" in args:
        i = args.index("--idle")
        idle = float(args[i + 1])
        del args[i:i + 2]
    notes, vault, hub = args
    vault = os.path.realpath(vault)
    server = Server(notes, vault)
    response, _ = server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    print("initialize %.1f" % ((time.monotonic() - server.started) * 1000))
    server.notify("initialized", {})

    document = uri(vault + "/lsp-bench-probe.md")
    typed = hub[:3]
    text = "# Probe\n\nSee [[%s]] here.\n[[%s" % (hub, typed)
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": document, "languageId": "markdown", "version": 1, "text": text}})
    _, first = server.request("textDocument/definition", at(document, 2, 6))
    print("first %.1f" % first)

    def median(method, params):
        times = []
        answer = None
        for _ in range(runs):
            answer, elapsed = server.request(method, params)
            times.append(elapsed)
        return answer, statistics.median(times)

    answer, completion = median("textDocument/completion", at(document, 3, 2 + len(typed)))
    if "error" in answer and answer["error"].get("code") == -32601:
        print("completion n/a")
    else:
        print("completion %.1f" % completion)
    _, definition = median("textDocument/definition", at(document, 2, 6))
    print("definition %.1f" % definition)
    _, hover = median("textDocument/hover", at(document, 2, 6))
    print("hover %.1f" % hover)
    answer, references = median("textDocument/references", dict(at(document, 2, 6), context={
        "includeDeclaration": True}))
    print("references %.1f" % references)
    print("references_count %d" % len(answer.get("result") or []))

    # A note of 1,000 links to the vault's notes; each change adds one broken link, so each
    # change changes the diagnostics and is published.
    names = sorted(name[:-3] for name in os.listdir(vault) if name.endswith(".md"))[:1000]
    linked = uri(vault + "/lsp-bench-links.md")
    base = "# Links\n\n" + "".join("- [[%s]]\n" % name for name in names)
    server.notify("textDocument/didOpen", {"textDocument": {
        "uri": linked, "languageId": "markdown", "version": 1, "text": base}})
    server.wait("textDocument/publishDiagnostics", linked)
    times = []
    for run in range(runs):
        start = time.monotonic()
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": linked, "version": run + 2},
            "contentChanges": [{"text": base + "- [[missing-%d]]\n" % run}]})
        server.wait("textDocument/publishDiagnostics", linked)
        times.append((time.monotonic() - start) * 1000)
    print("diagnostics %.1f" % statistics.median(times))
    print("diagnostics_links %d" % len(names))

    print("rss_kb %d" % server.rss_kb())
    ticks = server.cpu_ticks()
    time.sleep(idle)
    used = (server.cpu_ticks() - ticks) / os.sysconf("SC_CLK_TCK")
    print("idle_cpu %.2f" % (100 * used / idle))
    print("idle_seconds %g" % idle)
    server.request("shutdown", None)
    server.notify("exit", None)
    server.process.wait(timeout=60)


if __name__ == "__main__":
    main()
