// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "lpcheck",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LivePhotoFormats", targets: ["LivePhotoFormats"]),
        .library(name: "LivePhotoCheck", targets: ["LivePhotoCheck"]),
        .library(name: "LivePhotoReports", targets: ["LivePhotoReports"]),
        .library(name: "LivePhotoRecords", targets: ["LivePhotoRecords"]),
        .library(name: "LivePhotoWriting", targets: ["LivePhotoWriting"]),
        .library(name: "LivePhotoCodecProtocol", targets: ["LivePhotoCodecProtocol"]),
        .library(name: "LivePhotoCache", targets: ["LivePhotoCache"]),
        .library(name: "LivePhotoObjectStore", targets: ["LivePhotoObjectStore"]),
        // For the fuzz package's structure generators (HostileStructure); not for users.
        .library(name: "LivePhotoTestSupport", targets: ["LivePhotoTestSupport"]),
        // For the fuzz package's gif target (GIFDecoder); links FFmpeg's libraries.
        .library(name: "LivePhotoCodec", targets: ["LivePhotoCodec"]),
        .executable(name: "lpcheck", targets: ["lpcheck"]),
        .executable(name: "lpcheck-codec", targets: ["lpcheck-codec"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // Thin C shims. Only LivePhotoFormats imports them (internal import).
        .systemLibrary(
            name: "CExif",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"]), .brew(["libexif"])]
        ),
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // FFmpeg's libraries: imported by LivePhotoCodec alone, linked by lpcheck-codec alone.
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavcodec",
            providers: [.apt(["libavcodec-dev", "libavformat-dev", "libavutil-dev", "libswscale-dev"]), .brew(["ffmpeg"])]
        ),
        // Decoding and encoding pictures (a still from a movie's frame) through FFmpeg: owned
        // handles, typed errors. Depends on no rule or report.
        // Pixel loops (a GIF's palette and dithering) run optimized in debug builds too: the
        // tests run them over whole movies, and unoptimized Swift is ten times slower there.
        .target(name: "LivePhotoCodec", dependencies: ["CFFmpeg", "LivePhotoFormats", "LivePhotoCodecProtocol"],
                swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // The codec helper lpcheck make hands pixel work to: the only executable that loads FFmpeg.
        .executableTarget(name: "lpcheck-codec", dependencies: ["LivePhotoCodec", "LivePhotoFormats", "LivePhotoCodecProtocol"]),
        // The contract between lpcheck and its codec helper, linked by both (no FFmpeg in it):
        // one request type whose arguments are the only grammar, one answer layout with one
        // writer and one reader, the codec kinds, the picture limits and the budget.
        .target(name: "LivePhotoCodecProtocol", dependencies: ["LivePhotoFormats"]),
        // The facts cache of incremental checks: SQLite rows keyed by path, device, inode, size
        // and change times. The only importer of CSQLite.
        .target(name: "LivePhotoCache", dependencies: ["LivePhotoCheck", "LivePhotoFormats", "CSQLite"]),
        // Bytes to models: QuickTime/ISO BMFF boxes, JPEG segments, HEIF items, EXIF, MakerApple, XMP.
        .target(name: "LivePhotoFormats", dependencies: ["CExif", "CLibXML2"]),
        // S3-compatible object storage: SigV4, ranged GETs and listings (libcurl through
        // CCurlLoader), S3Source, the ByteSource of one object. The only importer of CCurlLoader.
        .target(name: "LivePhotoObjectStore", dependencies: ["LivePhotoFormats", "CCurlLoader"]),
        // libcurl loaded at run time (dlopen) when an s3:// path is read: nothing links it.
        .target(name: "CCurlLoader", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        // Discovery, pairing, the rule registry (one rule per file), findings. Reads models, never bytes.
        .target(name: "LivePhotoCheck", dependencies: ["LivePhotoFormats", .product(name: "Yams", package: "Yams")]),
        // Every writer's plans (repair, convert, make, export), the one pipeline that writes them
        // (stage, read back, rename: safe file replacement) and the codec helper's client.
        .target(name: "LivePhotoWriting", dependencies: ["LivePhotoFormats", "LivePhotoCheck", "LivePhotoCodecProtocol", "CFileCopy"]),
        // In-kernel file copying (copy_file_range) for repair's unchanged ranges.
        .target(name: "CFileCopy"),
        // glibc's malloc headroom (mallopt M_TOP_PAD), set by the commands that read a library.
        .target(name: "CMallocTuning"),
        // Pure writers from models/reports to bytes: one per format.
        // The HTML report's CSS is embedded at build time, so the binary needs no resource bundle.
        .target(name: "LivePhotoReports", dependencies: ["LivePhotoFormats", "LivePhotoCheck"],
                resources: [.embedInCode("Resources/report.css")]),
        .target(name: "LivePhotoRecords", dependencies: ["LivePhotoFormats", "LivePhotoCheck", "LivePhotoReports"]),
        .target(name: "LivePhotoRun", dependencies: ["LivePhotoFormats", "LivePhotoCheck", "LivePhotoReports", "LivePhotoRecords", "LivePhotoWriting",
                                                     "LivePhotoCache", "LivePhotoObjectStore"]),
        // The command line: arguments, terminal output, exit codes.
        .executableTarget(
            name: "lpcheck",
            dependencies: [
                "LivePhotoFormats", "LivePhotoCheck", "LivePhotoReports", "LivePhotoRecords", "LivePhotoWriting", "LivePhotoCodecProtocol", "LivePhotoCache", "LivePhotoRun",
                "CMallocTuning", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets: sample locations, oracles, a box builder, a schema
        // validator, and the fuzz targets' bodies (the Fuzz package hands them libFuzzer's inputs).
        // The tests' pixel arithmetic (PSNR of whole movies), optimized in debug builds too.
        .target(name: "LivePhotoTestPixels", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "LivePhotoTestSupport", dependencies: ["LivePhotoFormats", "LivePhotoCheck", "LivePhotoRecords", "LivePhotoReports", "LivePhotoCodec"]),
        .testTarget(name: "LivePhotoFormatsTests", dependencies: ["LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoCheckTests", dependencies: ["LivePhotoCheck", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoReportsTests", dependencies: ["LivePhotoReports", "LivePhotoCheck", "LivePhotoFormats", "LivePhotoTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "LivePhotoRecordsTests", dependencies: ["LivePhotoRecords", "LivePhotoReports", "LivePhotoCheck", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoWritingTests", dependencies: ["LivePhotoWriting", "LivePhotoCodecProtocol", "LivePhotoCheck", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoCodecProtocolTests", dependencies: ["LivePhotoCodecProtocol", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoCacheTests", dependencies: ["LivePhotoCache", "LivePhotoCheck", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoObjectStoreTests", dependencies: ["LivePhotoObjectStore", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "lpcheckTests", dependencies: ["LivePhotoFormats", "LivePhotoCodecProtocol", "LivePhotoTestSupport", "LivePhotoTestPixels"]),
    ]
)
