import Baton
import BatonSim
import Foundation
import Testing

/// Connections: pages in both directions over real cursors, node and offset cursors, growth at
/// both ends, overlapping pages, empty pages with null cursors, stale cursors.
@Suite("Connections page over real cursors")
struct ExecutorConnectionTests {
    /// One page as the tests read it.
    struct Page: Equatable {
        var ids: [String]
        var cursors: [String]
        var start: String?
        var end: String?
        var hasNext: Bool
        var hasPrevious: Bool
        var total: Int
    }

    static func world() throws -> World {
        var settings = WorldFixtures.quiet
        settings.entities = ["Thing": 12...12, "Human": 1...1, "Droid": 1...1, "Starship": 1...1]
        settings.connectionLength = 6...6
        return try ExecutorSchema.world(ExecutorSchema.things, settings: settings)
    }

    static func server(_ world: World, style: ServerConfiguration.CursorStyle, decorated: Bool = false) -> Server {
        WorldFixtures.server(world, seed: 3) {
            $0.cursorStyle = style
            $0.decoratedCursors = decorated
            $0.connectionLength = 6...6
        }
    }

    static func page(_ server: inout Server, _ world: World, _ variables: [String: JSONValue]) throws -> Page {
        let execution = server.execute(try #require(world.operation(named: "Things")), variables: variables)
        let things = try #require(execution.data?["things"]?.value.object)
        let edges = things["edges"]!.value.items.map { $0.object! }
        let info = try #require(things["pageInfo"]?.value.object)
        func bool(_ key: String) -> Bool { info[key]?.value == .scalar(.bool(true)) }
        guard case .scalar(.int(let total))? = things["totalCount"]?.value else { throw CancellationError() }
        return Page(
            ids: edges.map { $0["node"]!.value.object!["id"]!.value.string! }, cursors: edges.map { $0["cursor"]!.value.string! },
            start: info["startCursor"]?.value.string, end: info["endCursor"]?.value.string,
            hasNext: bool("hasNextPage"), hasPrevious: bool("hasPreviousPage"), total: total)
    }

    @Test("forward pages join at their cursors, and the page after the last is empty with null cursors",
        arguments: [ServerConfiguration.CursorStyle.node, .offset], [false, true])
    func forward(style: ServerConfiguration.CursorStyle, decorated: Bool) throws {
        let world = try Self.world()
        var server = Self.server(world, style: style, decorated: decorated)
        let all = try Self.page(&server, world, [:])
        #expect(all.total == 6)
        #expect(Set(all.ids).count == 6)
        var seen: [String] = []
        var after: JSONValue = .null
        var pages = 0
        while true {
            let page = try Self.page(&server, world, ["first": .int(4), "after": after])
            pages += 1
            if page.ids.isEmpty {
                #expect(page.start == nil && page.end == nil)
                #expect(!page.hasNext)
                #expect(page.hasPrevious)
                break
            }
            #expect(page.start == page.cursors.first && page.end == page.cursors.last)
            #expect(page.hasPrevious == !seen.isEmpty)
            seen += page.ids
            #expect(page.hasNext == (seen.count < 6))
            after = .string(page.end!)
            #expect(pages < 5)
        }
        #expect(seen == all.ids)
        if decorated { #expect(all.cursors.allSatisfy { $0.unicodeScalars.contains("🦄") && $0.contains("\"") }) }
        if style == .offset { #expect(all.cursors.first?.contains("offset:0") == true) }
    }

    @Test("backward pages join at their start cursors", arguments: [ServerConfiguration.CursorStyle.node, .offset])
    func backward(style: ServerConfiguration.CursorStyle) throws {
        let world = try Self.world()
        var server = Self.server(world, style: style)
        let all = try Self.page(&server, world, [:])
        var seen: [String] = []
        var before: JSONValue = .null
        while seen.count < 6 {
            let page = try Self.page(&server, world, ["last": .int(4), "before": before])
            #expect(!page.ids.isEmpty)
            #expect(page.hasNext == !seen.isEmpty)
            seen = page.ids + seen
            #expect(page.hasPrevious == (seen.count < 6))
            before = .string(page.start!)
        }
        #expect(seen == all.ids)
    }

    @Test("growth at the front: offset cursors shift and the next page overlaps; node cursors do not")
    func growthAtTheFront() throws {
        let world = try Self.world()
        for style in [ServerConfiguration.CursorStyle.node, .offset] {
            var server = Self.server(world, style: style)
            let first = try Self.page(&server, world, ["first": .int(2)])
            let line = server.drift(.growFront)
            #expect(line?.contains("at the front") == true)
            let grown = try Self.page(&server, world, [:])
            #expect(grown.total == 7)
            #expect(Array(grown.ids.dropFirst().prefix(2)) == first.ids)
            let next = try Self.page(&server, world, ["first": .int(2), "after": .string(first.end!)])
            if style == .offset {
                #expect(next.ids.first == first.ids.last, "the page after offset 1 starts at the node the client holds")
            } else {
                #expect(next.ids == Array(grown.ids[3...4]))
            }
            let back = server.drift(.growBack)
            #expect(back?.contains("at the back") == true)
            #expect(try Self.page(&server, world, [:]).total == 8)
        }
    }

    @Test("a stale or unknown cursor answers an empty page; a deleted node drops out of the list")
    func staleCursors() throws {
        let world = try Self.world()
        var server = Self.server(world, style: .node)
        let all = try Self.page(&server, world, [:])
        for cursor in ["nonsense", "offset:1", all.cursors[2] + "x"] {
            let page = try Self.page(&server, world, ["first": .int(2), "after": .string(cursor)])
            #expect(page == Page(ids: [], cursors: [], start: nil, end: nil, hasNext: false, hasPrevious: false, total: 6))
        }
        let removed = server.execute(try #require(world.operation(named: "RemoveThing")), variables: ["id": .string(all.ids[2])])
        #expect(removed.data?["removeThing"]?.value.object?["deletedId"]?.value == .scalar(.string(all.ids[2])))
        let after = try Self.page(&server, world, [:])
        #expect(after.ids == all.ids.enumerated().filter { $0.offset != 2 }.map(\.element))
        let stale = try Self.page(&server, world, ["first": .int(2), "after": .string(all.cursors[2])])
        #expect(stale.ids.isEmpty && stale.start == nil && stale.end == nil)
    }

    @Test("first and last together, and a negative count is a field error")
    func firstAndLast() throws {
        let world = try Self.world()
        var server = Self.server(world, style: .offset)
        let all = try Self.page(&server, world, [:])
        let page = try Self.page(&server, world, ["first": .int(4), "last": .int(2)])
        #expect(page.ids == Array(all.ids[2...3]))
        #expect(page.hasNext && page.hasPrevious)
        let negative = server.execute(try #require(world.operation(named: "Things")), variables: ["first": .int(-1)])
        #expect(negative.data?["things"]?.value == .null)
        #expect(negative.data?["things"]?.errors.first?.message.contains("must not be negative") == true)
    }
}
