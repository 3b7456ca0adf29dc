import LivePhotoCheck

/// The JSON report as an XML property list (same document; nulls are left out, as plists have none).
public enum CheckPlist: Sendable {
    public static func render(_ report: CheckReport) -> String {
        var text = ""
        write(report) { text += $0 }
        return text
    }

    /// Streams the property list: the JSON document's items one at a time, so a large
    /// library's report never exists whole in memory.
    public static func write(_ report: CheckReport, to sink: (String) -> Void) {
        sink("""
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>

        """)
        guard case .object(let head) = CheckJSON.document(report, items: []) else { return }
        for (key, value) in head {
            if case .null = value { continue }
            var text = "\t<key>\(Markup.escape(key))</key>\n"
            if key == "items" && !report.items.isEmpty {
                sink(text + "\t<array>\n")
                let items = report.items
                ParallelPieces.stream(count: items.count, { position in
                    var piece = ""
                    write(CheckJSON.item(items[position]), indent: 2, into: &piece)
                    return piece
                }, to: sink)
                sink("\t</array>\n")
                continue
            }
            write(value, indent: 1, into: &text)
            sink(text)
        }
        sink("</dict>\n</plist>\n")
    }

    static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: "\t", count: indent)
        switch value {
        case .null: out += "\(pad)<string></string>\n"
        case .bool(let flag): out += "\(pad)<\(flag ? "true" : "false")/>\n"
        case .int(let number): out += "\(pad)<integer>\(number)</integer>\n"
        case .uint(let number): out += "\(pad)<integer>\(number)</integer>\n"
        case .double(let number): out += "\(pad)<real>\(number.isFinite ? String(number) : "0")</real>\n"
        case .string(let text): out += "\(pad)<string>\(Markup.escape(text))</string>\n"
        case .array(let values):
            if values.isEmpty { out += "\(pad)<array/>\n"; return }
            out += "\(pad)<array>\n"
            for element in values { write(element, indent: indent + 1, into: &out) }
            out += "\(pad)</array>\n"
        case .object(let pairs):
            let present = pairs.filter { if case .null = $0.1 { return false } else { return true } }
            if present.isEmpty { out += "\(pad)<dict/>\n"; return }
            out += "\(pad)<dict>\n"
            for (key, element) in present {
                out += "\(pad)\t<key>\(Markup.escape(key))</key>\n"
                write(element, indent: indent + 1, into: &out)
            }
            out += "\(pad)</dict>\n"
        }
    }
}
