extension Store {
    /// Forgets everything the store holds, as a user logging out needs: every record, every
    /// optimistic layer and every fetch time, in memory at once (each observed record notifies
    /// and reads `nil`) and in the image after what is queued (``StoreImage/erase()``).
    ///
    /// From now on the check reads nothing of the old image: until the writer's erase commits it
    /// reads nothing at all, and then only what was committed since. Retained roots stay retained
    /// (the screens that watch them get the next user's data); an answer or a revert of a layer
    /// the erase dropped does nothing of the layer's. Like a commit, the erase is durable once the
    /// writer's drain commits it.
    public func erase() {
        let visibleBefore = objects.keys.sorted()
        replaceOverlay([:], in: &base)
        layers = []
        var emptied = RecordMemory()
        emptied.connectionsToldByShape = base.connectionsToldByShape
        emptied.connectionKeysReadForward = base.connectionKeysReadForward
        base = emptied
        fetches = [:]
        needsCollection = false
        if !configuration.mutant.isOn(.eraseSkipsImage) { image?.erase() }
        refreshObjects(visibleBefore)
    }
}
