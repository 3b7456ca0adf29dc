import Foundation
import LivePhotoTestSupport
import Testing

/// A page played in headless Chromium driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands on descriptor 3, answers on 4, each a JSON text ended by
/// a NUL), from a small Python program. A movie plays in real time, so waiting a fixed virtual
/// time (`--virtual-time-budget`) is a race a loaded machine loses (CI saw `currentTime 0.0`);
/// this asks the page again and again until what the test waits for holds, or a deadline passes.
enum ChromiumPlayer {
    struct Played: Decodable {
        /// The card's `data-played` (the player's last currentTime, seconds), or nil.
        var played: Double?
        /// The card's playhead `x1`, or nil.
        var head: Double?
        /// Whether the condition held before the deadline.
        var held: Bool
        /// Console and log entries, Content-Security-Policy violations among them.
        var log: [String]
    }

    static let driver = #"""
    import json, os, subprocess, sys, time
    chromium, url, profile, anchor, deadline = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
    to_browser, browser_in = os.pipe()
    browser_out, from_browser = os.pipe()
    def descriptors():
        # Copies first: the pipes may already be 3 to 6, and dup2 onto itself keeps close-on-exec.
        reading, writing = os.dup(to_browser), os.dup(from_browser)
        os.dup2(reading, 3)
        os.dup2(writing, 4)
    browser = subprocess.Popen([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
                                '--user-data-dir=' + profile, '--remote-debugging-pipe', 'about:blank'], preexec_fn=descriptors, close_fds=False,
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(to_browser); os.close(from_browser)
    log, pending, counter = [], b'', [0]
    def receive():
        global pending
        while b'\0' not in pending:
            chunk = os.read(browser_out, 65536)
            if not chunk: raise SystemExit('chromium closed its pipe')
            pending += chunk
        text, pending = pending.split(b'\0', 1)
        return json.loads(text)
    def call(method, params=None, session=None):
        counter[0] += 1
        message = {'id': counter[0], 'method': method, 'params': params or {}}
        if session: message['sessionId'] = session
        os.write(browser_in, json.dumps(message).encode() + b'\0')
        while True:
            answer = receive()
            if answer.get('id') == counter[0]:
                if 'error' in answer: raise SystemExit(method + ': ' + json.dumps(answer['error']))
                return answer.get('result', {})
            params = answer.get('params', {})
            if answer.get('method') == 'Log.entryAdded':
                log.append(params['entry'].get('text', ''))
            elif answer.get('method') == 'Runtime.consoleAPICalled':
                log.append(' '.join(str(a.get('value', a.get('description', ''))) for a in params.get('args', [])))
            elif answer.get('method') == 'Runtime.exceptionThrown':
                log.append(json.dumps(params.get('exceptionDetails', {})))
    target = call('Target.createTarget', {'url': 'about:blank'})['targetId']
    session = call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
    for domain in ('Log', 'Runtime', 'Page'): call(domain + '.enable', session=session)
    call('Page.navigate', {'url': url}, session=session)
    probe = ('(function () { var c = document.getElementById(%s); if (!c) return null; var v = c.querySelector("video.preview");'
             ' var l = c.querySelector("svg.timeline line.playhead");'
             ' return {played: v ? parseFloat(v.getAttribute("data-played")) : null, head: l ? parseFloat(l.getAttribute("x1")) : null}; })()') % json.dumps(anchor)
    state, held, stop = {}, False, time.monotonic() + deadline
    while time.monotonic() < stop:
        state = call('Runtime.evaluate', {'expression': probe, 'returnByValue': True}, session=session).get('result', {}).get('value') or {}
        played, head = state.get('played'), state.get('head')
        if played is not None and played == played and played > 0.2 and head is not None and head > 10.5:
            held = True
            break
        time.sleep(0.1)
    # Entries logged while the page loaded arrive with Log.enable; a last round trip collects late ones.
    call('Runtime.evaluate', {'expression': '0'}, session=session)
    try: call('Browser.close')
    except SystemExit: pass
    browser.wait(timeout=30)
    def number(x): return x if isinstance(x, (int, float)) and x == x else None
    print(json.dumps({'played': number(state.get('played')), 'head': number(state.get('head')), 'held': held, 'log': log}))
    """#

    /// Opens `page` at `#play=anchor` and waits (at most `deadline` seconds) until that card's
    /// preview has played past 0.2 s and its playhead has moved off the timeline's start.
    static func play(_ page: URL, anchor: String, deadline: Double = 60) throws -> Played {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), [
            "-c", driver, try #require(Locations.tool("chromium")), page.absoluteString + "#play=\(anchor)", profile.path, anchor, String(deadline),
        ], timeout: deadline + 90)
        #expect(result.status == 0, "the DevTools driver: \(result.stderr.suffix(600))")
        return try JSONDecoder().decode(Played.self, from: result.stdout)
    }
}
