import Foundation

/// A command line's options: `--name value` pairs, bare `--flag`s, and positional words.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags = Set<String>()
    private var consumed = Set<String>()

    /// Parses `words`; `flagNames` lists the options that take no value.
    init(_ words: [String], flagNames: Set<String>) throws {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    options[String(name[..<equals])] = String(name[name.index(after: equals)...])
                } else if flagNames.contains(name) {
                    flags.insert(name)
                } else {
                    guard index + 1 < words.count else { throw CLIError.usage("--\(name) needs a value") }
                    options[name] = words[index + 1]
                    index += 1
                }
            } else {
                positional.append(word)
            }
            index += 1
        }
    }

    /// The value of `--name`, or nil.
    mutating func option(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]
    }

    /// The value of `--name`, or a usage error.
    mutating func required(_ name: String) throws -> String {
        guard let value = option(name) else { throw CLIError.usage("missing --\(name)") }
        return value
    }

    /// True when `--name` was given.
    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// An integer option.
    mutating func integer(_ name: String) throws -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text) else { throw CLIError.usage("--\(name) takes a whole number, not \(text)") }
        return value
    }

    /// Fails on options nobody asked for, so typos do not pass silently.
    func finish() throws {
        let unknown = Set(options.keys).union(flags).subtracting(consumed).sorted()
        if let first = unknown.first { throw CLIError.usage("unknown option --\(first)") }
    }
}

/// An error the CLI reports on stderr with a non-zero exit.
enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case failed(String)

    var description: String {
        switch self {
        case .usage(let message): "usage: \(message)"
        case .failed(let message): message
        }
    }
}

/// Reads a whole file, with an error that names it.
func readFile(_ path: String) throws -> [UInt8] {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError.failed("cannot read \(path)")
    }
    return [UInt8](data)
}

/// Reads a whole text file.
func readText(_ path: String) throws -> String {
    String(decoding: try readFile(path), as: UTF8.self)
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
