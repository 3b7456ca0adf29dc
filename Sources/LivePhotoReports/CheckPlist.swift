import LivePhotoCheck

/// The JSON report as an XML property list (same document; nulls are left out, as plists have none).
public enum CheckPlist: Sendable {
    public static func render(_ report: CheckReport) -> String {
        var out = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """
        write(CheckJSON.document(report), indent: 0, into: &out)
        out += "</plist>\n"
        return out
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
