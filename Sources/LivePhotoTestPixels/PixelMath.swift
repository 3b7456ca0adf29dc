import Foundation

/// The tests' pixel arithmetic, in a target of its own built optimized in debug builds too:
/// comparing every frame of a movie with every frame of another is a billion subtractions, which
/// unoptimized Swift takes tens of seconds over.
public enum PixelMath {
    /// The mean squared difference of two equal-length pictures, sample by sample; infinity when
    /// their lengths differ or they are empty (nothing compares equal to a missing picture).
    public static func meanSquaredError(_ a: [UInt8], _ b: [UInt8]) -> Double {
        guard a.count == b.count, !a.isEmpty else { return .infinity }
        var sum: UInt64 = 0
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                for index in 0..<x.count {
                    let difference = Int(x[index]) - Int(y[index])
                    sum &+= UInt64(difference * difference)
                }
            }
        }
        return Double(sum) / Double(a.count)
    }

    /// PSNR in dB of a mean squared error over 8-bit samples (99 for identical pictures).
    public static func decibels(_ error: Double) -> Double { error == 0 ? 99 : 10 * log10(255 * 255 / error) }
}
