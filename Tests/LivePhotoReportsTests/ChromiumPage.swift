import Foundation
import LivePhotoTestSupport
import Testing

/// A page opened in headless Chromium driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands on descriptor 3, answers on 4, each a JSON text ended by
/// a NUL), from a small Python program, and asked in JavaScript what it shows, again and again
/// until the answer says `done` or a deadline passes. A movie plays in real time, so waiting a
/// fixed virtual time (`--virtual-time-budget`) is a race a loaded machine loses (CI saw
/// `currentTime 0.0`); computed styles and decoded pictures are not in a dumped DOM at all.
enum ChromiumPage {
    struct Answer {
        /// The expression's last value (a JSON object), without `done`.
        var value: [String: Any]
        /// Whether it said `done` before the deadline.
        var held: Bool
        /// Console and log entries, Content-Security-Policy violations among them.
        var log: [String]
    }

    static let driver = #"""
    import json, os, subprocess, sys, time
    chromium, url, profile, expression, deadline = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
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
    state, held, stop = {}, False, time.monotonic() + deadline
    while time.monotonic() < stop:
        answer = call('Runtime.evaluate', {'expression': expression, 'returnByValue': True}, session=session)
        state = answer.get('result', {}).get('value') or {}
        if 'exceptionDetails' in answer: log.append('the probe: ' + json.dumps(answer['exceptionDetails'])[:400])
        if state.get('done') is True:
            held = True
            break
        time.sleep(0.1)
    # Entries logged while the page loaded arrive with Log.enable; a last round trip collects late ones.
    call('Runtime.evaluate', {'expression': '0'}, session=session)
    try: call('Browser.close')
    except SystemExit: pass
    browser.wait(timeout=30)
    state.pop('done', None)
    print(json.dumps({'value': state, 'held': held, 'log': log}))
    """#

    /// Opens `address` and evaluates `expression` (JavaScript whose value is an object with
    /// `done` and what the test reads; NaN becomes null) until it says `done`, at most
    /// `deadline` seconds.
    static func ask(_ address: String, _ expression: String, deadline: Double = 60) throws -> Answer {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("lpcheck-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try ProcessResult.run(try #require(Locations.tool("python3")), [
            "-c", driver, try #require(Locations.tool("chromium")), address, profile.path, expression, String(deadline),
        ], timeout: deadline + 90)
        #expect(result.status == 0, "the DevTools driver: \(result.stderr.suffix(600))")
        let object = try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], "\(result.text.prefix(300))")
        return Answer(value: object["value"] as? [String: Any] ?? [:], held: object["held"] as? Bool ?? false, log: object["log"] as? [String] ?? [])
    }

    /// Opens `page` at `#play=anchor` and waits until that card's preview has played past 0.2 s
    /// and its playhead has moved off the timeline's start (x = 10).
    static func play(_ page: URL, anchor: String) throws -> (played: Double?, head: Double?, held: Bool, log: [String]) {
        try #require(anchor.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }, "an anchor \(anchor)")
        let probe = """
        (function () {
          var card = document.getElementById('\(anchor)');
          var video = card && card.querySelector('video.preview'), line = card && card.querySelector('svg.timeline line.playhead');
          var played = video ? parseFloat(video.getAttribute('data-played')) : NaN, head = line ? parseFloat(line.getAttribute('x1')) : NaN;
          return {played: played, head: head, done: played > 0.2 && head > 10.5};
        })()
        """
        let answer = try ask(page.absoluteString + "#play=\(anchor)", probe)
        return (answer.value["played"] as? Double, answer.value["head"] as? Double, answer.held, answer.log)
    }
}
