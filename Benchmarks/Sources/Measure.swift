import Foundation

/// Times `body` `iterations` times (after one warm-up) and returns the sorted durations in ms.
func measure(iterations: Int, _ body: () throws -> Void) rethrows -> [Double] {
    try body()
    var samples: [Double] = []
    for _ in 0..<iterations {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    }
    return samples.sorted()
}

/// One line of the report: best and median, and the median's ratio to a floor measured in the same run.
struct Row {
    let name: String
    let samples: [Double]
    let floor: (name: String, samples: [Double])?

    var best: Double { samples.first ?? 0 }
    var median: Double { samples[samples.count / 2] }

    func render() -> String {
        var line = String(format: "%-58@ best %8.3f ms  median %8.3f ms", name as NSString, best, median)
        if let floor {
            let floorMedian = floor.samples[floor.samples.count / 2]
            line += String(format: "  = %5.2f× %@ (%.3f ms)", median / floorMedian, floor.name, floorMedian)
        }
        return line
    }
}
