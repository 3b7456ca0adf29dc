import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// The report's filters, in the page itself: kind, verdict, rule, severity, folder and a text
/// search, applied by one inline script that the page's Content-Security-Policy allows by its
/// hash alone (no other script runs, nothing is fetched). Each card carries what it is filtered
/// by in data attributes; a filter can be given in the address (`#kind=pair&rule=…`).
extension CheckHTML {
    /// Hides the cards no filter keeps, and the folders left empty; opens the folders that hold
    /// a card kept; says how many are shown; keeps the filters in the address.
    static let filterScript = """
    (function () {
      var form = document.getElementById('filters');
      if (!form) return;
      var names = ['kind', 'verdict', 'rule', 'severity', 'folder', 'text'];
      var cards = Array.prototype.slice.call(document.querySelectorAll('section.card'));
      var folders = Array.prototype.slice.call(document.querySelectorAll('details.folder'));
      function value(name) { var field = form.elements[name]; return field ? field.value : ''; }
      function has(card, name, word) { return (' ' + (card.getAttribute('data-' + name) || '') + ' ').indexOf(' ' + word + ' ') >= 0; }
      function apply() {
        var v = {};
        names.forEach(function (name) { v[name] = value(name); });
        var text = v.text.toLowerCase(), count = 0;
        cards.forEach(function (card) {
          var keep = (!v.kind || card.getAttribute('data-kind') === v.kind) && (!v.verdict || has(card, 'verdicts', v.verdict))
            && (!v.rule || has(card, 'rules', v.rule)) && (!v.severity || card.getAttribute('data-severity') === v.severity)
            && (!v.folder || card.getAttribute('data-folder') === v.folder) && (!text || card.textContent.toLowerCase().indexOf(text) >= 0);
          // The attribute says it; the style does it (a card's own display would show it anyway).
          card.hidden = !keep;
          card.style.display = keep ? '' : 'none';
          if (keep) count += 1;
        });
        var filtering = names.some(function (name) { return v[name] !== ''; });
        folders.forEach(function (details) {
          var kept = details.querySelectorAll('section.card:not([hidden])').length;
          details.hidden = kept === 0;
          details.style.display = kept === 0 ? 'none' : '';
          if (filtering && kept > 0) details.open = true;
        });
        if (filtering && !scrolled) {
          var first = cards.filter(function (card) { return !card.hidden; })[0];
          if (first) first.scrollIntoView();
          scrolled = true;
        }
        document.getElementById('shown').textContent = count + ' of ' + cards.length + ' cards shown';
        var params = new URLSearchParams();
        names.forEach(function (name) { if (v[name]) params.set(name, v[name]); });
        if (filtering || names.some(function (name) { return given.has(name); })) {
          try { history.replaceState(null, '', '#' + params.toString()); } catch (e) {}
        }
      }
      var given = new URLSearchParams(location.hash.slice(1)), scrolled = false;
      names.forEach(function (name) { if (given.has(name) && form.elements[name]) form.elements[name].value = given.get(name); });
      form.addEventListener('input', apply);
      form.addEventListener('change', apply);
      apply();
    })();
    """

    /// The Content-Security-Policy's source for the script: its SHA-256, base64.
    static var scriptSource: String { "'sha256-\(Data(SHA256.hash(Array(filterScript.utf8))).base64EncodedString())'" }

    /// The filter bar: a choice of each value the shown cards have, and a search field.
    static func filterBar(_ report: CheckReport, shown: [Int], folders: [(name: String, rank: Int, items: [Int])]) -> String {
        let items = shown.map { report.items[$0] }
        func select(_ name: String, _ label: String, _ values: [String]) -> String {
            guard !values.isEmpty else { return "" }
            let options = values.map { "<option value=\"\(Markup.escape($0))\">\(Markup.escape($0))</option>" }.joined()
            return "<label>\(label) <select name=\"\(name)\"><option value=\"\">all</option>\(options)</select></label>\n"
        }
        let kinds = ItemKind.allCases.filter { kind in items.contains { $0.kind == kind } }.map(\.rawValue)
        var verdicts: [String] = []
        for target in Target.allCases {
            for verdict in Verdict.allCases where items.contains(where: { $0.verdicts[target] == verdict }) { verdicts.append("\(target.rawValue):\(verdict.rawValue)") }
        }
        let rules = Array(Set(items.flatMap { $0.findings.map(\.rule) })).sorted()
        let severities = ["error", "warning", "info", "clean"].filter { level in items.contains { severity($0) == level } }
        let folderNames = folders.filter { folder in folder.items.contains { shown.contains($0) } }.map(\.name)
        return "<form class=\"filters\" id=\"filters\">\n" + select("kind", "kind", kinds) + select("verdict", "verdict", verdicts) + select("rule", "rule", rules)
            + select("severity", "worst finding", severities) + select("folder", "folder", folderNames)
            + "<label>search <input name=\"text\" type=\"search\"></label>\n<output id=\"shown\"></output>\n</form>\n"
    }

    /// A card's data attributes, for the filters.
    static func filterAttributes(_ item: CheckItem, folder: String) -> String {
        let verdicts = item.verdicts.all.map { "\($0.target.rawValue):\($0.verdict.rawValue)" }.joined(separator: " ")
        let rules = Array(Set(item.findings.map(\.rule))).sorted().joined(separator: " ")
        return " data-kind=\"\(item.kind.rawValue)\" data-verdicts=\"\(verdicts)\" data-rules=\"\(Markup.escape(rules))\" data-severity=\"\(severity(item))\" data-folder=\"\(Markup.escape(folder))\""
    }

    /// The worst finding's severity the report does not accept, or clean.
    static func severity(_ item: CheckItem) -> String {
        item.findings.filter { !$0.baselined }.map(\.severity).max()?.rawValue ?? "clean"
    }
}
