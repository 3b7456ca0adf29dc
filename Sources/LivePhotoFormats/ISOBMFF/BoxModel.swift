/// A box lpcheck decodes into a model: parsed from its payload (after the box header) by a
/// reader that cannot pass the box's end. The movie reader warns about bytes a model leaves
/// unread (`MovieParser.model`), so every model box gets the leftover check.
public protocol BoxModel: Sendable {
    init(parsing reader: inout ByteReader) throws
}

/// A box model whose layout depends on its type (`stco`/`co64`, `stsz`/`stz2`).
public protocol TypedBoxModel: Sendable {
    init(parsing reader: inout ByteReader, type: FourCC) throws
}

extension HandlerBox: BoxModel {}
extension KeysBox: BoxModel {}
