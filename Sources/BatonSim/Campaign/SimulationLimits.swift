/// How many events one run may draw: the schedule and trace are kept in memory.
package enum SimulationLimits {
    package static let maxEvents = 100_000
}
