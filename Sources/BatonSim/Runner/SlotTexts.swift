import Baton

/// The storage key of each slot as the model spells it, by slot number: a slot's name is the same
/// for the whole process, so the runner asks the store's slot table once per slot instead of once
/// per comparison.
struct SlotTexts {
    private var texts: [OracleText?] = []

    /// The model's text of `slot`'s storage key.
    mutating func text(_ slot: SlotID) -> OracleText {
        let index = Int(slot.index)
        if index < texts.count, let known = texts[index] { return known }
        if index >= texts.count { texts.append(contentsOf: repeatElement(nil, count: index + 1 - texts.count)) }
        let text = OracleText(slot.name)
        texts[index] = text
        return text
    }
}
