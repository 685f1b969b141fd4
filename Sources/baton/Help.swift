/// One command's help: how to call it, what it does, and its options.
struct CommandHelp {
    /// The words that name the command (`["sim", "run"]`).
    let path: [String]
    let synopsis: String
    let summary: String
    let options: [(name: String, meaning: String)]

    var text: String {
        var lines = ["usage: " + synopsis, "", summary]
        if !options.isEmpty {
            lines.append("")
            let width = options.map(\.name.count).max() ?? 0
            for option in options {
                lines.append("  " + option.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + option.meaning)
            }
        }
        return lines.joined(separator: "\n")
    }
}

/// Every command's help, and the usage line that points to it.
enum Help {
    /// The options that name the world a simulator command runs in.
    private static let worldOptions: [(name: String, meaning: String)] = [
        ("--world NAME|DIR", "the world: a built-in one (rickandmorty, the default; github) or a folder with schema.graphql or schema.graphqls (or an introspection result, schema.json), more schema in other *.graphqls files, operations (*.graphql, subfolders too) and an optional world.json"),
        ("--schema FILE[,FILE…] --operations FILE[,FILE…]", "a quick start instead of --world: your schema (SDL, or an introspection result's JSON; then any SDL files that extend it, such as Apollo Kotlin's extra.graphqls) and your operations' files"),
        ("--add-typename", "with --schema and --operations: add __typename to every selection set first, as Apollo's code generators do (a folder's world.json says \"addTypename\": true)"),
        ("--unanswered NAME[,NAME…]", "with --schema and --operations: operations the server does not answer, kept out of the schedule (a folder's world.json lists \"unansweredOperations\")"),
    ]

    private static let operationOptions: [(name: String, meaning: String)] = [
        ("--schema SDL", "the schema, a file of SDL or an introspection result (JSON, as schema.json holds it)"),
        ("--document GRAPHQL", "a file of GraphQL operations and fragments"),
        ("--operation NAME", "which operation of the document (needed when it has several)"),
        ("--variables JSON", "the operation's variables: a JSON object, inline or a file that holds one"),
    ]

    static let commands: [CommandHelp] = [
        CommandHelp(path: ["normalize"],
                    synopsis: "baton normalize --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON] --response JSON",
                    summary: "Commits a response into an empty store and prints the records (Relay's record-source shape).",
                    options: operationOptions + [("--response JSON", "a file holding the server's response")]),
        CommandHelp(path: ["read"],
                    synopsis: "baton read --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON] --response JSON",
                    summary: "Commits a response into an empty store and prints the operation read back from it: its data, and the field errors stored beside it (exit 2 when incomplete).",
                    options: operationOptions + [("--response JSON", "a file holding the server's response")]),
        CommandHelp(path: ["image"],
                    synopsis: "baton image write|read|dump|stats|sweep|race …",
                    summary: "The image from the command line: write a response into it, read an operation back with no network, list its rows, or count them.",
                    options: []),
        CommandHelp(path: ["image", "write"],
                    synopsis: "baton image write --image FILE --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON] --response JSON",
                    summary: "Checks the operation over the image FILE as its screen would, then commits the response and lets the writer keep it (so a page joins the connection the image holds).",
                    options: [("--image FILE", "the image (made if missing)")] + operationOptions + [("--response JSON", "a file holding the server's response")]),
        CommandHelp(path: ["image", "read"],
                    synopsis: "baton image read --image FILE --schema SDL --document GRAPHQL [--operation NAME] [--variables JSON]",
                    summary: "Checks the operation in a new store over the image and prints its data and stored field errors (exit 0 available, 2 missing, 1 error).",
                    options: [("--image FILE", "the image")] + operationOptions),
        CommandHelp(path: ["image", "dump"],
                    synopsis: "baton image dump --image FILE",
                    summary: "Prints every row of the image, in the shape `normalize` prints.",
                    options: [("--image FILE", "the image")]),
        CommandHelp(path: ["image", "stats"],
                    synopsis: "baton image stats --image FILE",
                    summary: "Counts the image's rows and names, and shows its generation, size and last use per launch.",
                    options: [("--image FILE", "the image")]),
        CommandHelp(path: ["image", "sweep"],
                    synopsis: "baton image sweep [--damages N] [--seed S] [--first I] [--header] [--trace] [--directory DIR]",
                    summary: "Damages copies of real-shaped images and checks every read, dump and later write against the undamaged truth (exit 1 on a wrong answer, 4 on a hang).",
                    options: [
                        ("--damages N", "how many damaged copies (default 10000)"),
                        ("--seed S", "the seed of the damages (default 1)"),
                        ("--first I", "start at damage I (to rerun one)"),
                        ("--header", "damage every byte of SQLite's header in turn instead"),
                        ("--trace", "print each damage as it is tried"),
                        ("--directory DIR", "where the copies go (default a temporary folder)"),
                    ]),
        CommandHelp(path: ["image", "race"],
                    synopsis: "baton image race [--pairs N] [--directory DIR] [--baton PATH]",
                    summary: "Starts pairs of `baton image write` processes together on one image and checks that none failed, lost or aged out a write (exit 1 otherwise).",
                    options: [
                        ("--pairs N", "how many pairs (default 200)"),
                        ("--directory DIR", "where the images go (default a temporary folder)"),
                        ("--baton PATH", "the baton executable to start (default this one)"),
                    ]),
        CommandHelp(path: ["stress"],
                    synopsis: "baton stress --kills N [--seed S] [--image PATH] [--dir DIR] [--checkpoint-pages N] [--mutant NAME]",
                    summary: "Runs children of this baton that commit a seeded workload into one image with the production background writer, kills each with SIGKILL at a seeded moment, and checks the file against the states the reference model allows after a kill (exit 1 on a violation, naming the seed and the kill).",
                    options: [
                        ("--kills N", "how many children to kill, one after another on the same image"),
                        ("--seed S", "the seed of the workloads and kill points (default: drawn from the clock and printed)"),
                        ("--image PATH", "the image (default stress.image in the folder); a path with no file at it: the run makes the image from nothing"),
                        ("--dir DIR", "where the workload, the children's stderr and the image go (default a temporary folder, removed after a clean run)"),
                        ("--checkpoint-pages N", "the WAL pages at which the children's writer checkpoints (default 1000, production's): a few make kills land inside checkpoints"),
                        ("--mutant NAME", "switch a known bug back on in every child (debug builds), to watch the check fail"),
                    ]),
        CommandHelp(path: ["sim"],
                    synopsis: "baton sim run|campaign|replay|mutants|sweep …",
                    summary: "BatonSim: seeded runs of the real store and image over a simulated disk, checked against a reference model.",
                    options: []),
        CommandHelp(path: ["sim", "run"],
                    synopsis: "baton sim run --seed N [--world NAME|DIR] [--events K] [--trace] [--mutant NAME] [--replays DIR] [--html FILE] [--key KEY]",
                    summary: "Runs one seed. On a failure prints each differing cell and the events up to the failing one, shrinks the schedule and writes a replay file with its timeline page beside it (exit 1).",
                    options: [
                        ("--seed N", "the seed: a whole number from 0 to 18446744073709551615"),
                        ("--events K", "events to draw (default 200, as a campaign runs; at most 100000)"),
                        ("--trace", "print every event as it runs, and the swarm configuration first"),
                        ("--mutant NAME", "switch a known bug back on (debug builds; `baton sim mutants` lists them)"),
                        ("--replays DIR", "where a failure's replay file goes (default replays)"),
                        ("--html FILE", "write the run's timeline as one self-contained HTML page"),
                        ("--key KEY", "print one record's history through the run (Character:1): memory, writer queue, image, model"),
                    ] + worldOptions),
        CommandHelp(path: ["sim", "campaign"],
                    synopsis: "baton sim campaign --seeds A..B|A..|random [--world NAME|DIR] [--for 10m] [--jobs N] [--shard I/N] [--events K] [--max-failures N] [--json FILE] [--save-regressions [DIR]] …",
                    summary: "Runs many seeds: first the regressions folder, then the seeds until the range ends, the time budget runs out, --max-failures is reached or SIGINT/SIGTERM arrives; then prints the summary and writes the JSON. Exit 0 when nothing failed, 1 when something did, 130/143 when a signal stopped a clean campaign.",
                    options: [
                        ("--seeds A..B", "the seeds A to B; A.. runs from A on; random draws the first seed from the clock and prints it"),
                        ("--for DURATION", "a time budget: 90s, 10m, 1h, 1h30m; the seeds in flight finish"),
                        ("--jobs N", "run N processes of baton, each a slice of the seeds (1 to 64, default 1)"),
                        ("--shard I/N", "run the I-th of N interleaved slices (a CI matrix: one shard per machine)"),
                        ("--events K", "events per seed (default 200, at most 100000)"),
                        ("--max-failures N", "stop once N failures are found"),
                        ("--json FILE", "write the report: seeds, shard, build, SQLite version, every failure with its swarm"),
                        ("--replays DIR", "where shrunk failures' replay files go, each with its timeline page (default replays)"),
                        ("--no-shrink", "report failures without shrinking or writing replay files"),
                        ("--regressions DIR|none", "the regressions folder replayed first (default Fixtures/regressions inside this repository)"),
                        ("--save-regressions [DIR]", "save each shrunk failure as a regression into DIR (default: the regressions folder)"),
                        ("--mutant NAME", "switch a known bug back on (debug builds)"),
                        ("--quiet", "no progress and no summary: only what failed (seeds, replays, reruns), the exit status and the JSON"),
                    ] + worldOptions),
        CommandHelp(path: ["sim", "replay"],
                    synopsis: "baton sim replay FILE [--world DIR] [--trace] [--keep-going] [--mutant NAME] [--html timeline.html] [--key KEY]",
                    summary: "Replays a replay file (a shrunk failure or a hand-written scenario) and checks every invariant and expectation (exit 1 on a failure, 65 when the file does not read).",
                    options: [
                        ("--trace", "print every event as it runs"),
                        ("--keep-going", "check every expectation and report all that fail (an invariant still stops the run)"),
                        ("--mutant NAME", "switch a known bug back on, over the file's own mutant (debug builds)"),
                        ("--html FILE", "write the run's timeline as one self-contained HTML page"),
                        ("--key KEY", "print one record's history through the replay (Character:1): memory, writer queue, image, model"),
                    ] + worldOptions),
        CommandHelp(path: ["sim", "mutants"],
                    synopsis: "baton sim mutants [--check [--mutant NAME] [--world NAME|DIR] [--seeds A..B] [--events K]]",
                    summary: "Lists the mutants (known bugs debug builds can switch back on); with --check, runs seeds under each until one fails.",
                    options: [
                        ("--check", "run seeds under each mutant and report the first failing seed and its shrunk length"),
                        ("--seeds A..B", "the seeds --check tries (default 0..199)"),
                        ("--mutant NAME", "check this mutant only"),
                        ("--events K", "events per seed (default 200)"),
                    ] + worldOptions),
        CommandHelp(path: ["sim", "sweep"],
                    synopsis: "baton sim sweep --seed N [--events K] [--mode fail|crash] [--world NAME|DIR] [--replays DIR] [--mutant NAME]",
                    summary: "Runs one seed's schedule again for each write, sync, truncation, open and deletion the disk does after the first launch, with that operation failing (fail), or failing and the process dying right after it, once by a kill and once by a power loss (crash); every invariant is checked. Prints a line per failing run with its replay file, and a total (exit 1 when a run failed).",
                    options: [
                        ("--seed N", "the seed whose schedule is swept"),
                        ("--events K", "events of the schedule (default 60; at most 100000)"),
                        ("--mode fail|crash", "fail the operation (default), or fail it and crash right after"),
                        ("--replays DIR", "where failing runs' replay files go (default replays)"),
                        ("--mutant NAME", "switch a known bug back on (debug builds): the sweep should find it"),
                    ] + worldOptions),
    ]

    /// Every command's synopsis (the commands with none below them).
    static var usage: String {
        let leaves = commands.filter { command in
            !commands.contains { $0.path.count > command.path.count && Array($0.path.prefix(command.path.count)) == command.path }
        }
        return (["usage:"] + leaves.map { "  " + $0.synopsis } + ["", "`baton COMMAND --help` explains a command."]).joined(separator: "\n")
    }

    /// True when the words ask for help: `--help` or `-h` anywhere, or `help` first.
    static func wanted(_ words: [String]) -> Bool {
        words.first == "help" || words.contains("--help") || words.contains("-h")
    }

    /// The command the leading words name, the most specific first; nil when they name none.
    static func command(for words: [String]) -> CommandHelp? {
        let names = Array((words.first == "help" ? Array(words.dropFirst()) : words).prefix { !$0.hasPrefix("-") })
        return commands.filter { $0.path.count <= names.count && Array(names.prefix($0.path.count)) == $0.path }
            .max { $0.path.count < $1.path.count }
    }

    /// The help to print for `words`.
    static func text(for words: [String]) -> String {
        command(for: words)?.text ?? usage
    }

    /// Where a usage error of `words` points: the command's help.
    static func hint(for words: [String]) -> String {
        guard let command = command(for: words) else { return "see `baton --help`" }
        return "see `baton \(command.path.joined(separator: " ")) --help`"
    }
}
