import Foundation
import LivePhotoTestSupport

// One fuzzing binary, one target per reader, chosen by LPCHECK_FUZZ_TARGET:
// movie, jpeg, heif, makerapple, exif, xmp, inspect, repair, convert, records, configuration, gif, hevc, zip. What each does
// with an input is LivePhotoTestSupport's FuzzTarget (the tests run the seeds through it too).

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

let target = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["LPCHECK_FUZZ_TARGET"] ?? "") ?? .inspect

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let data else { return 0 }
    target.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// SwiftPM renames an executable's entry point to `<module>_main`; hand control to libFuzzer.
@_cdecl("LPCheckFuzz_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, { testOneInput($0, $1) })
}
