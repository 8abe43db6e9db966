// libFuzzer target: the RR file reader (RRFileReader, as rr analyze and import rr read a file). Any bytes give
// intervals or one sentence, never a trap. Oracle: the reading is the same fed in chunks as fed whole, and
// every interval kept is positive, finite and one a strap can send.

func fuzzRR(_ bytes: [UInt8]) {
    let (chunkSize, input) = chunked(bytes)
    var whole = RRFileReader()
    let a = Result { () throws(RRFileFormat.Problem) in
        try whole.take(input)
        return try whole.finish()
    }
    var pieces = RRFileReader()
    let b = Result { () throws(RRFileFormat.Problem) in
        var start = 0
        while start < input.count {
            let end = min(start + chunkSize, input.count)
            try pieces.take(input[start..<end])
            start = end
        }
        return try pieces.finish()
    }
    guard a == b else { fatalError("chunks of \(chunkSize) read differently: \(a) vs \(b)") }
    switch a {
    case .success(let format):
        for v in format.intervalsMs where !(v > 0 && v < RRFileFormat.impossibleFromMs) {
            fatalError("interval \(v) ms kept")
        }
        _ = HRVAnalysis.analyze(format.intervalsMs, window: .morning)
    case .failure(let problem):
        if problem.sentence(file: "f.txt").isEmpty { fatalError("an empty sentence") }
    }
}
