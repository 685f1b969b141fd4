import Testing
import Baton

private typealias B = Build

/// A calendar-shaped query (issue 8): events whose calendar's provider is reached through a
/// wrapper object without an id, so `Calendar:2:provider` is one path-keyed record whatever event
/// led to it. `displayName` is non-null, `color` nullable.
///
/// `items { edges { node { id calendar { node { id provider { node { id displayName color } } } } } } }`
private let calendarPlan = B.query([
    B.object("items", "EventConnection", [
        B.object("edges", "EventEdge", list: 1, [
            B.object("node", "Event", [
                B.leaf("id", .id),
                B.object("calendar", "CalendarEdge", [
                    B.object("node", "Calendar", [
                        B.leaf("id", .id),
                        B.object("provider", "ProviderEdge", [
                            B.object("node", "CalendarProvider", [
                                .field(FieldSelection(
                                    responseKey: "id", name: "id", arguments: [],
                                    type: FieldType(namedType: "ID", kind: .id, listDepth: 0, nonNullLevels: 1), selections: nil)),
                                .field(FieldSelection(
                                    responseKey: "displayName", name: "displayName", arguments: [],
                                    type: FieldType(namedType: "String", kind: .string, listDepth: 0, nonNullLevels: 1), selections: nil)),
                                B.leaf("color"),
                            ]),
                        ]),
                    ]),
                ]),
            ]),
        ]),
    ]),
])

/// Two events on one calendar, each with its own `provider.node` JSON.
private func twoEvents(_ first: String, _ second: String, errors: String) -> String {
    #"""
    {"data":{"items":{"edges":[
       {"node":{"id":"a","calendar":{"node":{"id":"2","provider":{"node":\#(first)}}}}},
       {"node":{"id":"b","calendar":{"node":{"id":"2","provider":{"node":\#(second)}}}}}]}},
     "errors":\#(errors)}
    """#
}

private let providerPath = "items.edges.0.node.calendar.node.provider.node"

private func error(_ message: String, _ path: String) -> String {
    let components = path.split(separator: ".").map { part in Int(part).map(String.init) ?? "\"\(part)\"" }
    return #"{"message":"\#(message)","path":[\#(components.joined(separator: ","))]}"#
}

/// Issue 8: errors are placed by following their path through the response's own data, each step
/// as that occurrence had it, never through the records merged from all occurrences.
@Suite("Ingest: field errors follow their own occurrence")
struct IngestErrorPlacementTests {
    /// (a) The first occurrence's provider is null (its non-null `displayName` failed); the second
    /// links the same wrapper record to a provider whose name is "x". The error's path steps
    /// through null in its own occurrence: it lands on the field holding that null (the wrapper's
    /// merged `node`), and "x" stays clean.
    static func stepThroughNullElsewhereLinked(mutant: Mutant? = nil) throws -> ChangeSet {
        let json = twoEvents("null", #"{"id":"1","displayName":"x","color":"red"}"#,
                             errors: "[" + error("no name", providerPath + ".displayName") + "]")
        return try Ingest.normalize(plan: calendarPlan, variables: Variables([:]), response: Array(json.utf8), mutant: mutant)
    }

    /// (b) The first occurrence holds the provider and its failed nullable `color`; the second
    /// nulls the wrapper's link. The error belongs on the provider's `color`.
    static func objectElsewhereNulled(mutant: Mutant? = nil) throws -> ChangeSet {
        let json = twoEvents(#"{"id":"1","displayName":"x","color":null}"#, "null",
                             errors: "[" + error("no color", providerPath + ".color") + "]")
        return try Ingest.normalize(plan: calendarPlan, variables: Variables([:]), response: Array(json.utf8), mutant: mutant)
    }

    @Test("a path that steps through null in its own occurrence lands on the field holding it, though another occurrence links the record on")
    func stepThroughNullLandsOnTheNull() throws {
        let changes = try Self.stepThroughNullElsewhereLinked()
        #expect(changes.cell("Calendar:2:provider", "node") == Cell(
            .link(RecordKey("CalendarProvider:1")), errors: [FieldError(message: "no name", path: providerPath + ".displayName")]))
        #expect(changes.cell("CalendarProvider:1", "displayName") == Cell(.string("x")))
        #expect(changes.unplacedErrors.isEmpty)
    }

    @Test("an error on an object another occurrence unlinks still lands on that object's field")
    func objectUnlinkedElsewhereKeepsItsError() throws {
        let changes = try Self.objectElsewhereNulled()
        #expect(changes.value("Calendar:2:provider", "node") == .null)
        #expect(changes.cell("CalendarProvider:1", "color") == Cell(.null, errors: [FieldError(message: "no color", path: providerPath + ".color")]))
        #expect(changes.unplacedErrors.isEmpty)
    }

    @Test("the error of a record met twice sits beside its later value; both errors on the field are kept, in order")
    func recordMetTwiceKeepsItsLaterValue() throws {
        let json = twoEvents(#"{"id":"1","displayName":"x","color":null}"#, #"{"id":"1","displayName":"x","color":"red"}"#,
                             errors: "[" + error("first", providerPath + ".color") + "," + error("second", providerPath + ".color") + "]")
        let changes = try ingest(calendarPlan, json)
        #expect(changes.cell("CalendarProvider:1", "color") == Cell(.string("red"), errors: [
            FieldError(message: "first", path: providerPath + ".color"), FieldError(message: "second", path: providerPath + ".color"),
        ]))
        #expect(changes.unplacedErrors.isEmpty)
    }

    @Test("a null the client propagates for the server is stepped through like one the server sent")
    func clientPropagatedNullKeepsItsError() throws {
        // The server left `displayName` null in place; ingest propagates it to `node`.
        let json = twoEvents(#"{"id":"1","displayName":null,"color":null}"#, #"{"id":"1","displayName":"x","color":"red"}"#,
                             errors: "[" + error("no name", providerPath + ".displayName") + "]")
        let changes = try ingest(calendarPlan, json)
        #expect(changes.cell("CalendarProvider:1", "displayName") == Cell(.string("x")))
        #expect(changes.cell("Calendar:2:provider", "node")?.errors.map(\.message) == ["no name"])
        #expect(changes.unplacedErrors.isEmpty)
    }

    @Test("paths through aliases, an interface and a list of lists reach the object their occurrence holds")
    func aliasesAbstractTypesAndNestedLists() throws {
        let plan = B.query([
            B.object("grid", "Cell", name: "cells", list: 2, [B.leaf("label")]),
            B.object("thing", "Thing", abstract: true, [
                B.typename(),
                B.on(["Person"], [B.leaf("id", .id), B.leaf("nick", name: "name")]),
            ]),
        ])
        let changes = try ingest(plan, #"""
            {"errors":[{"message":"cell","path":["grid",1,0,"label"]},
                       {"message":"nick","path":["thing","nick"]},
                       {"message":"past the end","path":["grid",1,5,"label"]},
                       {"message":"not a list step","path":["grid","label"]}],
             "data":{"grid":[[{"label":"a"}],[{"label":null}]],"thing":{"__typename":"Person","nick":null,"id":"7"}}}
            """#)
        #expect(changes.cell("client:root:cells:1:0", "label")?.errors.first?.message == "cell")
        #expect(changes.cell("client:root:cells:0:0", "label")?.errors.isEmpty == true)
        #expect(changes.cell("Person:7", "name")?.errors.first?.message == "nick")
        #expect(changes.unplacedErrors.map(\.message) == ["past the end", "not a list step"])
    }

    #if BATON_MUTANTS
    @Test("under errorsFollowMergedLinks both outcomes of issue 8 come back")
    func mergedLinkMutant() throws {
        let stepped = try Self.stepThroughNullElsewhereLinked(mutant: .errorsFollowMergedLinks)
        #expect(stepped.cell("CalendarProvider:1", "displayName")?.errors.first?.message == "no name")
        #expect(stepped.unplacedErrors.isEmpty)
        let nulled = try Self.objectElsewhereNulled(mutant: .errorsFollowMergedLinks)
        #expect(nulled.cell("CalendarProvider:1", "color")?.errors.isEmpty == true)
        #expect(nulled.unplacedErrors.map(\.message) == ["no color"])
    }
    #endif
}
