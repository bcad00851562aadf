// swift-tools-version: 6.0
// reqrun: a command-line runner for collections of HTTP requests, on libcurl.
import PackageDescription

let package = Package(
    name: "reqrun",
    products: [
        .executable(name: "reqrun", targets: ["reqrun"]),
        .library(name: "ReqRunKit", targets: ["ReqRunKit"]),
    ],
    targets: [
        // libcurl through pkg-config; shim.h holds typed, non-variadic wrappers (Swift cannot call C varargs).
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // OpenSSL's libcrypto for SHA-1 (name-based UUIDs, RFC 9562 §5.5) and SHA-256 (response bodies).
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // libxml2 for the xpath check (XML and HTML bodies); imported by one file of ReqRunKit, XPathQuery.swift.
        .systemLibrary(
            name: "CXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .target(name: "ReqRunKit", dependencies: ["CCurl", "CCrypto", "CXML2"]),
        .target(name: "ReqRunCLI", dependencies: ["ReqRunKit"]),
        .executableTarget(name: "reqrun", dependencies: ["ReqRunCLI"]),
        // Helpers shared by the test targets: local servers, temporary folders, running the built binary.
        .target(name: "TestSupport", dependencies: ["ReqRunKit"], path: "Tests/TestSupport"),
        .testTarget(name: "ReqRunKitTests", dependencies: ["ReqRunKit", "TestSupport"]),
        .testTarget(name: "ReqRunCLITests", dependencies: ["ReqRunCLI", "ReqRunKit", "TestSupport", "reqrun"]),
    ],
    swiftLanguageModes: [.v6]
)
