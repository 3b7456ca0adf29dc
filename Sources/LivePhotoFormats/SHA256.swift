/// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104): what AWS Signature Version 4 needs (the
/// payload and canonical-request hashes and the signing-key chain) and a C2PA data hash (a file's
/// bytes but its exclusions, fed as they are read). Written here rather than
/// taken from swift-crypto, whose BoringSSL build adds minutes to every fresh clone's build;
/// `SignerTests` holds both to Python's hashlib and hmac, and the signatures to botocore's.
public enum SHA256 {
    static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The 32-byte digest of `message`.
    public static func hash<Bytes: Collection>(_ message: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = Hasher()
        hasher.update(Array(message))
        return hasher.finish()
    }

    /// A digest fed piece by piece (a file's ranges as they are read): 64-byte blocks compressed
    /// as they fill, at most one block held.
    public struct Hasher {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var pending: [UInt8] = []
        var length: UInt64 = 0
        var w = [UInt32](repeating: 0, count: 64)

        public init() {}

        public mutating func update(_ bytes: [UInt8]) {
            length = length &+ UInt64(bytes.count)
            var start = 0
            if !pending.isEmpty {
                let take = min(64 - pending.count, bytes.count)
                pending += bytes[0..<take]
                start = take
                guard pending.count == 64 else { return }
                compress(pending, at: 0)
                pending.removeAll(keepingCapacity: true)
            }
            while start + 64 <= bytes.count {
                compress(bytes, at: start)
                start += 64
            }
            pending += bytes[start...]
        }

        /// The digest; padding: 0x80, zeros to 56 mod 64, the length in bits (big-endian, 64 bits).
        public mutating func finish() -> [UInt8] {
            let bitLength = length &* 8
            var tail = pending + [0x80]
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            for block in stride(from: 0, to: tail.count, by: 64) { compress(tail, at: block) }
            pending = []
            return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
        }

        mutating func compress(_ bytes: [UInt8], at block: Int) {
            for t in 0..<16 {
                let i = block + t * 4
                w[t] = UInt32(bytes[i]) << 24 | UInt32(bytes[i + 1]) << 16 | UInt32(bytes[i + 2]) << 8 | UInt32(bytes[i + 3])
            }
            for t in 16..<64 {
                let s0 = SHA256.rotr(w[t - 15], 7) ^ SHA256.rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = SHA256.rotr(w[t - 2], 17) ^ SHA256.rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
            for t in 0..<64 {
                let s1 = SHA256.rotr(e, 6) ^ SHA256.rotr(e, 11) ^ SHA256.rotr(e, 25)
                let choice = (e & f) ^ (~e & g)
                let temp1 = h &+ s1 &+ choice &+ SHA256.k[t] &+ w[t]
                let s0 = SHA256.rotr(a, 2) ^ SHA256.rotr(a, 13) ^ SHA256.rotr(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let temp2 = s0 &+ majority
                (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
            }
            for (index, value) in [a, b, c, d, e, f, g, h].enumerated() { state[index] = state[index] &+ value }
        }
    }

    /// HMAC-SHA256 of `message` under `key`.
    public static func hmac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? hash(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        return hash(block.map { $0 ^ 0x5c } + hash(block.map { $0 ^ 0x36 } + message))
    }

    /// Lowercase hexadecimal, as SigV4 writes digests.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]] }
        return String(decoding: text, as: UTF8.self)
    }

    static func rotr(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }
}
