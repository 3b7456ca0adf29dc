/// A count and its noun, singular or plural as the count asks ("1 item", "2 items"); a noun
/// whose plural is not its singular with "s" gives its own.
public enum Plural {
    public static func count(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + noun(count, singular, plural: plural)
    }

    public static func noun(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        count == 1 ? singular : plural ?? singular + "s"
    }
}
