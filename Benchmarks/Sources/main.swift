import Foundation

// Baton's benchmarks: every measure timed in the same loop as its floor, repetition by
// repetition. Run in release:
//
//   swift build -c release --product BatonBenchmarks && .build/release/BatonBenchmarks [options]
//
// See `Options.usage` and BENCHMARKS.md.
do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let benchmarks = Benchmarks(options: options)
    try benchmarks.run()
} catch {
    FileHandle.standardError.write(Data("benchmarks: \(error)\n".utf8))
    exit(1)
}
