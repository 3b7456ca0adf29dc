// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "lpcheck",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "LivePhotoFormats", targets: ["LivePhotoFormats"]),
        .library(name: "LivePhotoReports", targets: ["LivePhotoReports"]),
        .executable(name: "lpcheck", targets: ["lpcheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        // Bytes to models: QuickTime/ISO BMFF boxes, JPEG segments, HEIF items, EXIF, MakerApple, XMP.
        .target(name: "LivePhotoFormats", dependencies: ["CExif", "CLibXML2"]),
        // Pure writers from models/reports to bytes (text, JSON).
        .target(name: "LivePhotoReports", dependencies: ["LivePhotoFormats"]),
        // The command line: arguments, terminal output, exit codes.
        .executableTarget(
            name: "lpcheck",
            dependencies: [
                "LivePhotoFormats", "LivePhotoReports",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Helpers shared by the test targets: sample locations, oracles, a box builder, a schema validator.
        .target(name: "LivePhotoTestSupport", dependencies: ["LivePhotoFormats"]),
        .testTarget(name: "LivePhotoFormatsTests", dependencies: ["LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "LivePhotoReportsTests", dependencies: ["LivePhotoReports", "LivePhotoFormats", "LivePhotoTestSupport"]),
        .testTarget(name: "lpcheckTests", dependencies: ["LivePhotoFormats", "LivePhotoTestSupport"]),
    ]
)
