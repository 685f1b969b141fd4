extension Store {
    /// Forgets everything the store holds, as a user logging out needs: every record, every
    /// optimistic layer and every fetch time, in memory at once (each observed record notifies
    /// and reads `nil`) and in the image after what is queued (``StoreImage/erase()``).
    ///
    /// From now on the check reads nothing of the old image: until the writer's erase commits it
    /// reads nothing at all, and then only what was committed since. Retained roots stay retained
    /// (the screens that watch them get the next user's data); an answer or a revert of a layer
    /// the erase dropped does nothing of the layer's. The erase is durable when this returns
    /// `true`: a mark beside the file (``EraseMark``) makes the next launch erase the image if
    /// this process ends before the writer's drain has (an erase before a background open
    /// finishes erases the image the moment it opens).
    ///
    /// - Returns: `false` when the image could not take the erase (its open failed, as on a
    ///   device still locked, or it was closed): memory is forgotten, the file keeps its rows,
    ///   and the next launch would read them, so the app should erase again once an image opens.
    ///   `false` too when the mark could not be written (a full disk): the erase then reaches the
    ///   file only with the writer's next drain that commits (`Image.drainNow()`).
    ///   `true` with no image at all.
    @discardableResult
    public func erase() -> Bool {
        let visibleBefore = objects.keys.sorted()
        replaceOverlay([:], in: &base)
        layers = []
        var emptied = RecordMemory()
        emptied.connectionsToldByShape = base.connectionsToldByShape
        emptied.connectionKeysReadForward = base.connectionKeysReadForward
        emptied.revivalKeepsDeletedFlag = base.revivalKeepsDeletedFlag
        base = emptied
        fetches = [:]
        needsCollection = false
        let reached = configuration.mutant.isOn(.eraseSkipsImage) ? true : image?.erase() ?? true
        refreshObjects(visibleBefore)
        return reached
    }
}
