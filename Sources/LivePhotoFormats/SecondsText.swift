/// Seconds as lpcheck prints them: rounded to a number of decimals, trailing zeros dropped
/// (`1.5`, `0.033333`). The one formatter of dumps, rule messages and repair plans.
public enum SecondsText {
    public static func format(_ value: Double, decimals: Int = 6) -> String {
        var scale = 1.0
        for _ in 0..<max(0, min(decimals, 12)) { scale *= 10 }
        let scaled = value * scale
        // Too large to round at that many decimals (no reader gives such a time, records can
        // claim one): the value as it is, never "inf".
        guard scaled.isFinite else { return String(value) }
        return String(scaled.rounded() / scale)
    }
}
