// swift-tools-version:6.0
// libFuzzer targets for lpcheck's readers and repair planner. A separate package, so that the
// main build never needs libFuzzer. Build and run with ../Scripts/fuzz.sh.
import PackageDescription

let package = Package(
    name: "LPCheckFuzz",
    dependencies: [.package(name: "lpcheck", path: "..")],
    targets: [
        .executableTarget(
            name: "LPCheckFuzz",
            dependencies: [
                .product(name: "LivePhotoFormats", package: "lpcheck"),
                .product(name: "LivePhotoCheck", package: "lpcheck"),
                .product(name: "LivePhotoReports", package: "lpcheck"),
                .product(name: "LivePhotoRecords", package: "lpcheck"),
                .product(name: "LivePhotoTestSupport", package: "lpcheck"),
                .product(name: "LivePhotoCodec", package: "lpcheck"),
            ]
        ),
    ]
)
