/// Known bug classes that tests and the simulator switch back on to prove they would be caught.
///
/// Mutants exist only in builds with `BATON_MUTANTS` (debug builds); a release build cannot turn
/// one on, and ``Mutants/active`` is always `nil` there.
package enum Mutant: String, CaseIterable, Sendable {
    /// The race the 2026-10-06 merge rule fixed: a partial snapshot replaces its row.
    case partialSnapshotReplaces
    /// Collection keeps the hydrated flag of a record it swept.
    case sweptKeepsHydrated
    /// A deleted row keeps its cells, and they are merged into a record a payload names again.
    case deletedCellsRevive
    /// Rows age out one launch too early.
    case evictOneLaunchEarly
    /// Rows never age out.
    case evictNever
    /// The writer commits one drain in two transactions.
    case drainInTwoTransactions
    /// An optimistic layer's values reach the image.
    case optimisticReachesImage
    /// Read-back drops a deleted record from a list of links instead of reading `null` there.
    case deletedDroppedFromList
    /// A joining connection page whose `pageInfo` says `null` for its cursor overwrites the stored one.
    case nullCursorOverwrites
    /// A row read that fails (busy, I/O error) still marks the record hydrated.
    case failedReadHydrates
    /// Ingest writes a wrong value for long string scalars (their last character dropped).
    case wrongScalarAtIngest
    /// Storage keys keep arguments in the order the document wrote them instead of sorting them.
    case storageKeyArgumentsUnsorted
    /// The commit never hands one record type (`PageInfo`) to the writer.
    case recordTypeNeverWritten
    /// The commit leaves its operation's fetch time out of what it hands the writer.
    case fetchTimesNotWritten
    /// Collection keeps a connection but sweeps its edge copies and page info (found by the first
    /// simulator at seeds 271, 693 and 732).
    case connectionEdgesSwept
    /// A record deleted in this launch is not counted as hydrated, so the check fills it from the
    /// row its deletion has not replaced yet (found at seeds 0, 42, 48 and 54).
    case deletionNotHydrated
    /// The image keeps the previous launch's WAL at open instead of checkpointing and truncating
    /// it, so a torn tail can come back (found at seeds 210, 248 and 481).
    case walKeptAtOpen
    /// Ingest places a field error by walking the merged records from the root instead of the
    /// response's own data, so a record met at two paths sends it through the other path's link
    /// (found by the simulator on a calendar-shaped schema, issue 8).
    case errorsFollowMergedLinks
    /// In an object whose `id` comes after a composite member, the leaves after that composite are
    /// written before it, so a record the composite meets again keeps its earlier value (found by
    /// the simulator's EpisodeCastHomes operation, seed 21, issue 8).
    case lateIDLeavesJumpAhead
    /// Read-back leaves out the field errors stored beside the cells it meets.
    case readBackDropsErrors
    /// Of several field errors whose paths name one field, ingest keeps only the last (the
    /// store's rule until the GitHub CLI's search response lost one of two list-item errors).
    case fieldKeepsOneError
    /// A field error whose path steps through a `null` (the null it explains, propagated from the
    /// field that failed) is returned unplaced instead of landing on the field holding the null
    /// (the store's rule until 2026-12-05: the error was lost from every later read).
    case errorsUnderNullUnplaced
    /// An error that explains a null list element, its failed field lying deeper
    /// (`episodes.1.id` under a null element 1), keeps only the indices that end its path, none,
    /// and reads back at the list's field instead of at the element (the store's rule until
    /// 2026-12-05, evening).
    case errorElementForgotten
    /// A `@deleteRecord` field whose value is a list of ids deletes the first only (planted: a bulk
    /// deletion the default world has none of; a world with `ids: [ID!]!` mutations catches it).
    case deleteRecordFirstOnly
    /// An invalidation spares the last fetch made before it (planted: `<` for `<=`).
    case invalidationSparesLast
    /// Reverting an optimistic layer rebuilds the overlay but leaves the record objects, so
    /// observers are not told and the objects show the reverted values (planted).
    case revertLeavesObjects
    /// A joining connection page's `nodes` replace the connection's instead of joining them (the
    /// store's behaviour until a `nodes` connection was refused, then merged).
    case connectionNodesReplaced
    /// A commit answers no connection page as joining nothing, so a dropped page goes unsaid.
    case unjoinedPagesUnreported
    /// Arguments and variables are keyed as written, not as input coercion makes them, so
    /// `scale: 2` and `scale: 2.0` of a `Float` are two slots (the store's rule until 2026-12-04).
    case inputsNotCoerced
    /// Entity keys hold the id as it is, so an entity whose id has a `:` (`Thing` `1:meta`) and an
    /// object at a path (`Thing:1`'s field `meta`) can be one record (the store's rule until
    /// 2026-12-04).
    case entityIDsNotEscaped
    /// Storage keys leave null arguments (and null members of input objects) out, so a field
    /// given an explicit `null` and the same field without the argument (which the server runs
    /// with the schema's default, or with nothing) are one slot (the store's rule until
    /// 2026-12-05, as Relay keys).
    case nullArgumentsDropped
    /// A connection field's errors stay on its own slot only, so reads, which meet the field
    /// through its connection slot, give a failed connection back as an empty one (the store's
    /// rule until 2026-12-05).
    case connectionErrorsUnread
    /// A connection's joined `edges` and `nodes` lists carry no errors: an edge that failed is
    /// left out of the list, and its error with it (the store's rule until 2026-12-05, night).
    case joinedListErrorsDropped
    /// A joining page whose `nodes` failed (`null`) replaces the connection's joined nodes with
    /// that null, where a failed `edges` keeps the held edges (the store's rule until 2026-12-05,
    /// night: a feed's third page failing emptied the feed).
    case failedNodesWipeJoined
    /// Ingest reads an error's `extensions` and a custom scalar's object into a `[String: …]`
    /// tree, which takes two member names that differ only in their Unicode normalization (`café`
    /// precomposed and decomposed) for one given twice, and refuses the whole response (the
    /// store's rule until 2026-12-05: found once the simulator's server sent extensions).
    case equivalentNamesCollide
    /// Read-back gives a custom scalar's object, an error's extensions and its other members as a
    /// tree keyed by Swift strings, so of two member names that differ only in their Unicode
    /// normalization the last in byte order is all a read shows (the store's rule until
    /// 2026-12-06; the simulator's model folded its expected read the same way, so no campaign
    /// could show it).
    case readBackFoldsEquivalentNames
    /// Memory tells a connection's client record by its key holding `:__` and `_connection` but
    /// not `_connection:` (the store's rule until 2026-12-06), so a connection whose filter value
    /// holds `_connection:` (a search for `is_connection:true`) is none to collection, which
    /// sweeps its edges and page info while a view of its count alone keeps it.
    case connectionsToldByShape
    /// Ingest takes a null that stands where the schema allows none for a plain null, as a lenient
    /// client does, instead of carrying it up to the nearest nullable place (planted: the
    /// simulator's server left every null where it fell only from 2026-12-05, and before that day
    /// no campaign had run the store's propagation).
    case nullsNotPropagated
    /// A release buffer over its size lets its newest roots go instead of its oldest (planted: no
    /// campaign released more roots than production's buffer of 10 holds until the swarm drew
    /// smaller buffers, 2026-12-05).
    case releaseBufferDropsNewest
    /// Collection's renumbering of memory's ids forgets which records were hydrated (planted: no
    /// campaign renumbered before the swarm drew a compaction slack of 0, 2026-12-05; the store's
    /// small worlds never left 1,024 dead ids).
    case compactionForgetsHydrated
    /// A read that finds a list item's record absent names the list in ``ReadResult/missing``, not
    /// the item (planted: no campaign read back a missing check's data before 2026-12-05).
    case missingItemNamesItsList
    /// Read-back of a field selected more than once in one object (a colocated fragment selecting
    /// it again, say) gives only the first selection's fields (planted: read-back's merge of
    /// several selection sets had never run in a campaign before GitHub's world selected an
    /// issue's repository twice, 2026-12-05).
    case readBackKeepsFirstSelection
    /// A structure check (`integrity_check` after a read met a damaged row) that could not read
    /// a page counts as finding the file corrupt, and the file is started again, every row lost
    /// (the image's rule until 2026-12-05; found by BatonSim once checks went back to answered
    /// screens and met rotted rows under a read fault).
    case failedStructureReadDiscards
    /// The writer never sets right a name whose checksum fails: rows it writes under the name
    /// read in this launch (memory knows the name) but miss at every later launch, and the rows
    /// the damage hid never come back (planted: names did not rot in campaigns before
    /// 2026-12-05).
    case nameRepairSkipped
    /// A record whose data changed notifies the observers of every slot it has, changed or not,
    /// so every view of the record draws again (planted: nothing guarded notifications that
    /// should not have happened).
    case everySlotNotifies
    /// An app update's wipe deletes the rows but leaves the old version in `meta`, so every
    /// launch of the new version wipes again and nothing survives a relaunch (planted: no
    /// campaign launched another app version before 2026-12-05).
    case wipeKeepsOldVersion
    /// An app update's open marks the image the new version's in a transaction of its own before
    /// it deletes the old version's rows in another: a process that dies between leaves the old
    /// rows under the new version's mark, and every later launch serves them.
    case wipeMarksFirst
    /// An error's path read past a bad element (neither a string nor a non-negative integer)
    /// leaves the strings after it unread, so the response is refused as malformed JSON (the
    /// bug BatonSim's garbled responses found on 2026-12-05).
    case badPathElementStopsReading
    /// Values a propagated null replaces are not checked past the null: a value of the wrong kind
    /// there is refused or not by the order of the members (the rule until 2026-12-05).
    case discardedValuesUnchecked
    /// A number in an error's path is read through a double, so one past a double's range refuses
    /// the whole response instead of making the path a bad one (found 2026-12-05).
    case pathNumberReadAsDouble
    /// An `ID` written as an integer past 64 bits keeps only its first 40 digits and an ellipsis,
    /// so two such ids alike in those digits are one record (found 2026-12-05).
    case longIntegerIDsCut
    /// A `@connection` field the response leaves out while an error names it gets its null cell
    /// but no page, so a read finds nothing at the connection and the screen reads as missing
    /// (found 2026-12-05; an explicit `null` got its page).
    case absentConnectionGetsNoPage
    /// Two members the selection does not name, escaped spellings of `café` precomposed and
    /// decomposed, are compared as Swift strings, taken for one name given twice, and the
    /// response is refused (found 2026-12-05 by the garbling that adds members).
    case unselectedTwinsCollide
    /// An escaped member name is matched to the selection's response keys as a Swift string, so
    /// `\u212Aind` (a Kelvin sign, canonically equivalent to `K`) reads as the field `Kind`, while
    /// the same name written unescaped does not (found 2026-12-05).
    case escapedNamesFoldEquivalent
    /// A `__typename` is compared as a Swift string and not checked to be a GraphQL name, so
    /// `\u212Aind` (a Kelvin sign) passes for the type `Kind`: its fragments apply and the record
    /// is filed as a `Kind` (found 2026-12-05).
    case typenamesFoldEquivalent
    /// The image's reader takes a list nested deeper than 128 for damage, though ingest accepts
    /// and the writer writes lists as deep as a response nests: a custom scalar's deep arrays
    /// were lost at the next launch (found 2026-12-06).
    case deepListsReadAsDamage
    /// The row encoder writes negative zero as zero (planted 2026-12-07, late night, by a helper
    /// session: the server sent no `-0.0` until 2026-12-08).
    case negativeZeroNormalized
    /// A list of links that loses a record it linked to does not count as dropping a link, so
    /// no automatic collection follows (planted: the simulator never ran automatic collection
    /// before 2026-12-06).
    case linkListDropUnnoticed
    /// An optimistic layer reverted or answered schedules no automatic collection, though what
    /// only it reached is garbage (the store's rule until 2026-12-06; the simulator's first
    /// campaign with automatic collection fails it at seed 0).
    case endedLayerNotCollected
    /// A record that changes its type while it holds links schedules no automatic collection,
    /// though selections choose fields by type and the old type's links may be read no more (the
    /// store's rule until 2026-12-06).
    case retypedLinksUnnoticed
    /// A connection's record told by reading forward from each `_connection(` in its key: a
    /// string argument inside an input object holding `x:__a_connection({"b":1})` made a plain
    /// field's record pass for a connection, and collection kept its edges (found 2026-12-06 by
    /// the first campaign with automatic collection on apollo-kotlin's calendar schema, seed
    /// 212524337).
    case connectionKeyReadForward
    /// Ingest passes over a `__typename` member the selection does not name, so one that
    /// contradicts an object type, or is no name, is taken (the rule until 2026-12-06, found by
    /// recorded responses of a real server that adds `__typename` everywhere).
    case unselectedTypenameUnchecked
    /// Ingest takes a custom scalar's number that no double holds exactly as the nearest double,
    /// so digits past a double's precision are rounded (the rule until 2026-12-06).
    case exactNumbersRounded
    /// Ingest keeps a custom scalar's whole number that fits an `Int` but no double holds,
    /// written with a fraction or an exponent (`9007199254740993.0`), as decimal text, while
    /// the same number inside the scalar's object reads back as an integer (the rule until
    /// 2026-12-06).
    case wholeExactNumbersAsText
    /// Opening a file of a format before 7 marks it 7 without moving its stamps: every row it
    /// holds reads as stamped long before any launch, unseen, and the next drain deletes it all.
    case stampsLeftAtFormatUpgrade
    /// Opening a file of a format before 7 counts the launch and marks the file 7 in one
    /// transaction, and moves its stamps in a second: a process that dies between leaves a
    /// format 7 file whose stamps are launches, every row unseen.
    case stampsMovedApart
    /// The open checkpoints the last launch's WAL without a durable copy of it first: after a
    /// writeback error dropped WAL pages the platter never got, a crash inside that checkpoint
    /// leaves the file beyond repair (the rule until 2026-12-06).
    case checkpointUnguarded
    /// A process checkpoints its WAL (the writer when the log grows long, the close) without a
    /// copy of it even after one of its syncs failed: a writeback error's dropped WAL pages and a
    /// crash inside that later checkpoint corrupt the file (the rule until 2026-12-06).
    case checkpointUnguardedAfterFailure
    /// Hydration's slot rows (the rows the check reads into memory) keep each cell's value
    /// without its field errors, so a field that failed reads back from the image as if it had
    /// not. Planted 2026-12-06, when BatonSim began to drive that path: no campaign could catch
    /// it before, as the simulator's hydration decoded named rows.
    case slotRowsDropErrors
    /// Ingest keeps an error's message, path and extensions and drops its other members
    /// (`locations`, GitHub's `type`): the rule until 2026-12-06.
    case errorMembersDropped
    /// A commit made while the image still opens replaces the commits buffered before it, so
    /// only the last of them reaches the image. Planted 2026-12-06, when BatonSim began to open
    /// the image in the background as production does.
    case openingKeepsLastCommit
    /// While the image still opens, its pending keys leave out the buffered commits, so
    /// collection may sweep a record the image has not been told of yet. Planted 2026-12-06
    /// with ``openingKeepsLastCommit``.
    case openingHidesBufferedKeys
    /// The commits kept while the image opens grow without the writer's bound, so collection
    /// keeps records the writer would have given up (and memory grows while the open is slow):
    /// the rule until 2026-12-06, found by the first campaigns that opened images in the
    /// background.
    case openingBufferUnbounded
    /// The collection rule's walk over a changed record's slots stops at the first slot the
    /// change empties and answers for it alone, so a deleted record whose first slot holding a
    /// list held an empty one schedules no pass, though a later slot linked to a connection (the
    /// rule from 2026-12-06's review until the same night, found by 1,000-event seeds of the
    /// default world: 218843858, 218843401).
    case emptiedSlotEndsTheSearch
    /// A fetch stamped after the clock's now (the device's clock was set back) counts as fresh
    /// until the clock passes the stamp and the expiration after it: the rule until 2026-12-07,
    /// when BatonSim's clock began to step back.
    case clockSetBackKeepsFresh
    /// An open that cannot open the file (a locked device's data protection, no descriptor left)
    /// takes it for unusable and deletes it, losing every row: planted 2026-12-07 with BatonSim's
    /// launches on a locked device, which must leave every file as it was.
    case cantOpenDiscards
    /// An erase's wipe deletes the rows without overwriting them: their bytes stay in the
    /// file's free pages (planted 2026-12-07 with the store's erase).
    case eraseLeavesBytes
    /// An erase's drain commits and leaves its wipe in the WAL: the file keeps the erased rows
    /// until a checkpoint, and the WAL the frames before it (planted 2026-12-07).
    case eraseNotCheckpointed
    /// The store's erase clears memory and forgets to tell the image, so the erased rows come
    /// back at the next launch (planted 2026-12-07).
    case eraseSkipsImage
    /// An erase's checkpoint that failed is not run again, so the drains after it leave the
    /// erased rows in the WAL and the file: the rule until BatonSim found it, 2026-12-07.
    case eraseCheckpointForgotten
    /// An erase leaves no mark beside the image, so a process killed between the erase and its
    /// drain leaves the erased rows for the next launch: the rule until 2026-12-07 (evening).
    case eraseUnmarked
    /// An open does not look for an erase's mark, so the rows an erase left (its process died
    /// before its drain) are read at the next launch (planted 2026-12-07).
    case eraseMarkIgnored
    /// An erase's mark is never deleted, so every later launch erases the image again and loses
    /// what was committed since (planted 2026-12-07).
    case eraseMarkKept
    /// An erase's mark is deleted as the erase's drain begins, before its wipe is committed and
    /// checkpointed, so a drain that fails, or a crash inside it, leaves the rows and no mark
    /// (planted 2026-12-07).
    case eraseMarkDroppedEarly
    /// The items of a list inside a list are keyed by their inner position only, so objects
    /// without an id at `[0][1]` and `[1][1]` share a record (planted 2026-12-07 by a session
    /// trying bugs nobody had planted: no world had a list of lists of objects).
    case nestedListItemsShareKeys
    /// A literal `@skip(if:)` is read as an `@include(if:)`: `@skip(if: true)` keeps the field and
    /// `@skip(if: false)` drops it (planted 2026-12-07: no world wrote a literal condition).
    case literalSkipReadAsInclude
    /// A variable left out inside an input object written in the document keys its member as
    /// `null`, the key of an explicit null (planted 2026-12-07: no world left one out).
    case absentInputMemberKeyedNull
    /// An erase's wipe leaves the names table: its storage keys, which hold the arguments the
    /// app sent, stay in the file (planted 2026-12-07: caught by chance only, until the erase's
    /// search looked for storage keys and operation identities too).
    case eraseKeepsNames
    /// An erase's mark is deleted once its wipe commits, though the wipe's checkpoint failed, so
    /// a power loss may bring back the rows the erase promised were gone (planted 2026-12-07:
    /// it passed every campaign until the model tied the mark's deletion to the wipe's
    /// durability).
    case eraseMarkBeforeCheckpoint
    /// A drain checkpoints only when the WAL holds exactly `checkpointPages` frames, so a drain
    /// that passes the mark leaves the log growing for as long as the process runs (planted
    /// 2026-12-07: nothing looked at the WAL's length until `wal-checkpointed`).
    case checkpointOnlyAtThreshold
    /// The writer's pending keys leave out the batches a drain has taken and not yet committed,
    /// so a collection while a background drain writes may sweep a record whose newest state is
    /// only in that drain; when the drain fails, a read finds the older row (planted 2026-12-07:
    /// the simulator's drains ran inside one event, so nothing ran while one was in flight,
    /// until `drainBegins` held a drain on a thread of its own).
    case pendingKeysSkipInFlight
    /// A drain that commits ends the wipe an erase (or an overflow) asked for while it was in
    /// flight, so the rows the erase forgot stay in the image and reads find them (planted
    /// 2026-12-07 with `drainBegins`: before it, no erase ever came while a drain was in flight).
    case commitEndsLaterWipe
    /// A drain that fails puts its work back at the front of the queue though an erase (or an
    /// overflow) dropped the queue while it was in flight, so the logged-out user's records
    /// reach the image after the erase (planted 2026-12-07 with `drainBegins`).
    case failedWorkOutlivesDrop
    /// A drain that fails puts its work back behind the batches queued while it was in flight,
    /// so the next drain writes the older data over the newer (planted 2026-12-07 by a helper
    /// session once drains could be held in flight: seeds 261 of the default world and 175 of
    /// GitHub's were the first to fail).
    case failedWorkRequeuedBehind
    /// The writer's bound leaves out the items a drain has in flight, so the writer holds more
    /// than its bound while one runs (planted 2026-12-07 by the same session).
    case boundIgnoresInFlight
    /// An overflow drops the queue and asks for a wipe without moving the queue's epoch, so a
    /// drain in flight that then fails puts back work the overflow dropped (planted 2026-12-07
    /// by the same session: seeds 116 and 146 were the first).
    case overflowKeepsEpoch
    /// A drain that finished an erase deletes the erase's mark though another erase came while
    /// it was in flight, so a process killed before the next drain leaves the second erase's
    /// rows for the next launch (planted 2026-12-07 by the same session: no seed of the default
    /// world's 0..299 at 200 events met it; GitHub's seed 60 did).
    case markClearedUnderLaterErase
    /// Any wipe, an overflow's too, gets an erase's truncating checkpoint, and when that fails
    /// the writer owes it as an erase's, so production's executor retries drains with a backoff
    /// for no erase at all (planted 2026-12-07 by a helper session: it writes the same rows and
    /// passed every seed, until `writer-owes-only-erases` asked for the writer's debt).
    case eraseCheckpointOnAnyWipe
    /// A selection set asks only its own fields and conditions whether variables change what
    /// applies, not the fragments it spreads, so a condition on a variable inside a fragment is
    /// cached under the first variables it met (planted 2026-12-07 by a helper session: caught at
    /// seed 2 of GitHub's world, never in the default world, which has no such condition).
    case fragmentConditionsHidden
    /// A deleted record that a payload names again keeps memory's deleted flag, though its data
    /// is no longer deleted: the check answers it as deleted, `null`, and collection does not
    /// follow its links (planted 2026-12-07 by a helper session: caught first at seed 205 of the
    /// default world and at none of GitHub's first 1,000).
    case revivalKeepsDeletedFlag
    /// A page joining a connection numbers its edge copies after the last copy in the list, not
    /// the highest: after a page before the first, the next page after the last writes over the
    /// copies the earlier one made (planted 2026-12-07 by a helper session: caught first at seed
    /// 171 of the default world, at none of GitHub's first 200, whose connections page through
    /// `nodes`).
    case edgeCopiesNumberedFromLast
    /// Compaction numbers again only the records memory holds or hydrated, not those only an
    /// optimistic layer holds, so a record a layer alone creates loses its overlaid flag and the
    /// check no longer sees it (planted 2026-12-07 by a helper session: caught first at seed 844
    /// of the default world, at none of GitHub's first 1,000).
    case compactionDropsOverlaid
    /// A drain that fails puts its work back but not the names it was to stamp as used, so rows
    /// read only in that launch age out a launch early (planted 2026-12-07 by a helper session:
    /// caught first at seed 116 of GitHub's world, at none of the default world's first 200).
    case failedDrainDropsTouches
    /// An erase's checkpoint that failed is owed, but the drain that pays it runs a passive
    /// checkpoint, which leaves the erased pages in the WAL (planted 2026-12-07 by a helper
    /// session: caught first at seed 172 of the default world).
    case owedEraseCheckpointPassive
    /// Collection sweeps the base without rebuilding the optimistic overlay, whose merged copies
    /// keep what was swept: a layer over the query root shows root fields memory no longer has
    /// (found 2026-12-07 while writing a scenario for `compactionDropsOverlaid`; no world had
    /// a layer over a query until then).
    case collectionLeavesOverlay
    /// A check given no expiration ignores the store's default expiration, so data past it reads
    /// fresh (no campaign configured a default expiration before 2026-12-07, night).
    case defaultExpirationIgnored
    /// The store's default expiration overrides the one a check brings (planted 2026-12-07 by a
    /// helper session, before any campaign configured a default).
    case defaultExpirationOverrides
    /// A null the server left at a non-null place is taken as propagated only when an error
    /// names exactly that place, not a place below it, so a server that carried the null part of
    /// the way up has its response refused (planted 2026-12-07 by a helper session: the simulated
    /// server never propagates part way, so only a scenario reaches it).
    case nullNamedOnlyExactly
    /// A response without data (errors only: a refused request) stamps its operation's fetch
    /// time, so a check reads the operation fresh though nothing was refreshed (planted
    /// 2026-12-07 by a helper session: only GitHub's world, whose root fields are non-null, sent
    /// such a response until the server refused requests in every world).
    case errorsOnlyStampsFetch
    /// A commit compares a record's new data with its old by Swift's `==` on text, so a value
    /// renewed into its Unicode twin (`café` decomposed after precomposed) counts as unchanged
    /// and the old bytes stay (planted 2026-12-07 by a helper session; the simulated server never
    /// renewed a value into its twin until then).
    case stringsCompareCanonically
    /// Collection marks only the overlay's version of a record a layer touches, not its base
    /// version, so records only the base links to are swept while the layer lives, and come back
    /// missing once it ends (planted 2026-12-07 by a helper session: caught first at seed 76 of
    /// the default world, at seed 306 since its FilterByObject drew the schedules anew).
    case markSkipsBaseOfOverlaid
    /// A variable given as an explicit `null` takes its declared default, though only a variable
    /// not given does (planted 2026-12-07, late night, by a helper session: the generator sent
    /// no null for a variable with a default until its condition variables could be null; seed
    /// 0 of GitHub's world catches it since).
    case explicitNullTakesDefault
    /// Variables the operation does not declare (an app's shared variables dictionary) stay in
    /// its variables and its identity (planted 2026-12-07, late night, by a helper session: the
    /// generator sends declared variables only).
    case undeclaredVariablesKept
    /// A read's `missing` lists one place past its limit of 20 (planted 2026-12-07, late night,
    /// by a helper session: no generated read misses more than 20 places).
    case missingLimitOffByOne
    /// A Float written `-0` reads as positive zero: the integer reading of the text loses the
    /// sign (the store's own reading until 2026-12-08, when the server began to send `-0.0`).
    case negativeZeroReadAsZero
    /// A commit takes `-0.0` and `0.0` for the same value, so a Float that turns from one to the
    /// other keeps its old sign (the store's own comparison until 2026-12-08).
    case zeroSignIgnored
    /// Ingest looks for an object's type name under `__typename` only, not under an alias a
    /// document gives it (`kind: __typename`), so an abstract object typed only by the alias is
    /// refused (planted 2026-12-07, late night, by a helper session: no world's document aliased
    /// it until 2026-12-08).
    case typenameAliasIgnored
    /// A named fragment spread a second time takes the first spread's resolution without its own
    /// type condition, so its fields apply to every type at the second place (planted 2026-12-07,
    /// late night, by a helper session: no world's document spread one fragment twice under an
    /// abstract type until 2026-12-08).
    case spreadCacheDropsCondition
    /// A condition variable that is no Boolean (given as an explicit `null`) lets its field in
    /// under `@include` and `@skip` alike (planted 2026-12-07, late night, by a helper session: the
    /// generator sent condition variables as booleans only; seed 2 of GitHub's world catches it
    /// since, the default world has no condition variable).
    case absentConditionKeeps
    /// An `ID` variable given as an integer (`4`) is keyed as the string `"4"`, though storage keys
    /// keep it as the app sent it (planted 2026-12-07, late night, by a helper session: the
    /// generator sent ids as strings only; seed 0 of the default world catches it since).
    case idIntKeyedAsString
    /// The fields of an input object given whole as a variable are kept as given, not coerced by
    /// their own types: a single value for a list is not a list of one (planted 2026-12-07, late
    /// night, by a helper session: no world passed such an input object as one variable; seed 11
    /// of the default world catches it since its `FilterByObject` does).
    case nestedInputNotCoerced

    /// What the mutant breaks, in a sentence.
    package var summary: String {
        switch self {
        case .partialSnapshotReplaces: "a snapshot of a record the check never read replaces its row (the 2026-10-06 race)"
        case .sweptKeepsHydrated: "collection sweeps a record but keeps its hydrated flag, so its next partial snapshot replaces the row"
        case .deletedCellsRevive: "a deleted row keeps its cells and they merge into a record a payload names again"
        case .evictOneLaunchEarly: "a row unread for part of one launch is already gone at the next"
        case .evictNever: "rows never age out of the image"
        case .drainInTwoTransactions: "the writer commits one drain as two transactions"
        case .optimisticReachesImage: "snapshots are taken from the optimistic view, so layer values reach the image"
        case .deletedDroppedFromList: "a deleted record in a list of links disappears from the list instead of reading null at its position"
        case .nullCursorOverwrites: "an empty last page's null end (or start) cursor overwrites the stored cursor, so the next page is ignored"
        case .failedReadHydrates: "a row read that fails during the check still marks the record hydrated, so its next partial snapshot replaces the row"
        case .wrongScalarAtIngest: "ingest stores every string value longer than eight characters without its last character"
        case .storageKeyArgumentsUnsorted: "storage keys keep the document's argument order, so one field written two ways is two slots"
        case .recordTypeNeverWritten: "the commit never hands PageInfo records to the writer"
        case .fetchTimesNotWritten: "the commit leaves fetch times out of what it hands the writer"
        case .connectionEdgesSwept: "collection keeps a connection but sweeps its edge copies and page info"
        case .deletionNotHydrated: "a record deleted in this launch is not hydrated, so the check revives its row's old cells"
        case .walKeptAtOpen: "an open keeps the previous launch's WAL instead of checkpointing and truncating it"
        case .lateIDLeavesJumpAhead: "in an object whose id comes late, leaves after a nested object are written before it, so the earlier value of a record met twice wins"
        case .errorsFollowMergedLinks: "a field error follows the merged links of a record met twice, landing beside another occurrence's value or dropped"
        case .readBackDropsErrors: "read-back gives the data without the field errors stored beside it"
        case .fieldKeepsOneError: "of several field errors on one field, ingest keeps only the last"
        case .errorsUnderNullUnplaced: "a field error whose path steps through the null it explains is returned unplaced, so no read gives it back"
        case .errorElementForgotten: "an error explaining a null list element whose failed field lay deeper reads back at the list's field, not at the element"
        case .deleteRecordFirstOnly: "a @deleteRecord field that lists several ids deletes only the first"
        case .invalidationSparesLast: "an invalidation leaves the last fetch before it fresh"
        case .revertLeavesObjects: "a reverted optimistic layer stays in the record objects and notifies no observer"
        case .everySlotNotifies: "a record whose data changed notifies the observers of every slot, changed or not"
        case .connectionNodesReplaced: "a connection's nodes are the last page's, not every page's joined"
        case .unjoinedPagesUnreported: "a commit never says that a page joined no connection"
        case .inputsNotCoerced: "arguments and variables are keyed as written, so a Float written 2 and 2.0 is two slots"
        case .entityIDsNotEscaped: "entity keys hold ids as they are, so an entity whose id has a colon can share a record with an object at a path"
        case .nullArgumentsDropped: "storage keys leave null arguments out, so a field given an explicit null and the same field without it are one slot"
        case .connectionErrorsUnread: "a connection field's errors are kept off its connection slot, so a read gives a failed connection back without them"
        case .joinedListErrorsDropped: "a connection's joined edges leave out a failed edge and its error too, so a read shows a shorter list and no error"
        case .failedNodesWipeJoined: "a joining page whose nodes failed replaces the nodes the connection held with null"
        case .equivalentNamesCollide: "ingest takes two member names that differ only in Unicode normalization for one given twice and refuses the response"
        case .connectionsToldByShape: "a connection whose filter value holds _connection: is not told for one, so collection sweeps its edges"
        case .readBackFoldsEquivalentNames: "read-back folds two member names that differ only in Unicode normalization into one, the last in byte order winning"
        case .nullsNotPropagated: "ingest keeps a null that stands where the schema allows none as a plain null instead of nulling the nearest nullable place"
        case .releaseBufferDropsNewest: "a full release buffer lets its newest roots go instead of its oldest"
        case .compactionForgetsHydrated: "collection's renumbering of record ids forgets which records were hydrated, so a partial snapshot replaces their rows"
        case .missingItemNamesItsList: "a read that finds a list item's record absent names the list as missing, not the item"
        case .readBackKeepsFirstSelection: "read-back of a field selected twice in one object gives only the first selection's fields"
        case .failedStructureReadDiscards: "a structure check that could not read a page finds the file corrupt, and the image starts again"
        case .nameRepairSkipped: "the writer leaves a damaged name's checksum wrong, so rows it writes under the name miss at the next launch"
        case .wipeKeepsOldVersion: "an app update's wipe leaves the old version in the image, so every launch of the new version wipes it again"
        case .wipeMarksFirst: "an app update's open marks the image the new version's before it deletes the old rows, in two transactions, so a process dying between leaves the old version's rows served as the new one's"
        case .badPathElementStopsReading: "a string after a bad element of an error's path is left unread, and the response is refused as malformed JSON"
        case .discardedValuesUnchecked: "a value of the wrong kind that a propagated null replaces is read past when it follows the null"
        case .pathNumberReadAsDouble: "a number past a double's range in an error's path refuses the whole response"
        case .longIntegerIDsCut: "an ID written as an integer past 64 bits keeps 40 digits and an ellipsis, so long ids alike in them share a record"
        case .absentConnectionGetsNoPage: "a @connection field the response leaves out while an error names it gets no page, so a read finds nothing at the connection"
        case .unselectedTwinsCollide: "two unselected members named café precomposed and decomposed, escaped, are taken for one name given twice and the response is refused"
        case .escapedNamesFoldEquivalent: "an escaped member name is matched as a Swift string, so \\u212Aind (a Kelvin sign) reads as the selected field Kind"
        case .typenamesFoldEquivalent: "a __typename is compared as a Swift string and not checked to be a name, so \\u212Aind (a Kelvin sign) passes for the type Kind"
        case .unselectedTypenameUnchecked: "a __typename member the selection does not name is passed over, so one contradicting the object's type is taken"
        case .errorMembersDropped: "an error's members besides message, path and extensions (locations, GitHub's type) are dropped"
        case .exactNumbersRounded: "a custom scalar's number with more digits than a double keeps is rounded to the nearest double"
        case .wholeExactNumbersAsText: "a custom scalar's whole number past a double's precision, written with a fraction or an exponent, reads back as decimal text, not as the integer it is"
        case .stampsLeftAtFormatUpgrade: "a format 6 file is marked 7 without its stamps moved, so every row it held is unseen and deleted at the first launch of the new build"
        case .checkpointUnguarded: "the open checkpoints the last launch's WAL without a durable copy of it, so after a failed sync dropped WAL pages a crash inside the checkpoint corrupts the file"
        case .checkpointUnguardedAfterFailure: "after a failed checkpoint a process checkpoints its WAL again without a durable copy of it, so a crash inside that checkpoint can corrupt the file"
        case .stampsMovedApart: "a format 6 file is counted and marked 7 in one transaction and has its stamps moved in another, so a process dying between leaves every row unseen"
        case .slotRowsDropErrors: "hydration's slot rows drop their cells' field errors, so a failed field reads back from the image as if it had not failed"
        case .deepListsReadAsDamage: "a list nested deeper than 128 in a row is read as damage, so a custom scalar's deep arrays are lost at the next launch"
        case .negativeZeroNormalized: "the row encoder writes -0.0 as 0.0, so a Float's sign is lost at the next launch"
        case .linkListDropUnnoticed: "a list of links that loses a record it linked to schedules no automatic collection, so what only it reached stays in memory"
        case .openingKeepsLastCommit: "a commit made while the image opens replaces the ones buffered before it, so only the last reaches the image"
        case .emptiedSlotEndsTheSearch: "a record's change that empties a slot holding no link (an empty list) hides the links its later slots drop, so a deleted record schedules no collection"
        case .openingBufferUnbounded: "the commits kept while the image opens ignore the writer's bound, so collection keeps what the writer would have given up"
        case .openingHidesBufferedKeys: "while the image opens, its pending keys leave out the buffered commits, so collection may sweep what the image has not been told of"
        case .endedLayerNotCollected: "an optimistic layer reverted or answered schedules no automatic collection, so what only it reached stays in memory"
        case .retypedLinksUnnoticed: "a record keyed by its place that changes its type schedules no automatic collection, so what only its old type's fields reached stays in memory"
        case .connectionKeyReadForward: "a plain field whose input-object argument holds a string with _connection( in it is taken for a connection, so collection keeps its edges"
        case .cantOpenDiscards: "an open that cannot open the file (a locked device) deletes it and starts the image again"
        case .eraseLeavesBytes: "an erase deletes the image's rows without overwriting them, so their bytes stay in the file's free pages"
        case .eraseNotCheckpointed: "an erase's wipe stays in the WAL, so the file keeps the erased rows until a later checkpoint"
        case .eraseCheckpointForgotten: "an erase whose checkpoint failed is not checkpointed again, so the erased rows stay in the WAL and the file until the process ends"
        case .eraseSkipsImage: "the store's erase clears memory without telling the image, so the erased rows come back at the next launch"
        case .eraseUnmarked: "an erase leaves no mark beside the image, so a process killed before the erase's drain leaves the erased rows for the next launch"
        case .eraseMarkIgnored: "an open does not look for an erase's mark, so the rows of an erase whose process died before its drain are read at the next launch"
        case .eraseMarkKept: "an erase's mark is never deleted, so every later launch erases the image again and loses what was committed since"
        case .eraseMarkDroppedEarly: "an erase's mark is deleted as its drain begins, so a drain that fails leaves the erased rows with no mark for the next launch"
        case .nestedListItemsShareKeys: "objects without an id in a list of lists are keyed by their inner position only, so the same position in two inner lists is one record"
        case .literalSkipReadAsInclude: "a literal @skip(if: true) keeps its field and @skip(if: false) drops it, as @include would"
        case .absentInputMemberKeyedNull: "a variable left out inside an input object written in the document keys its member as null, the same slot as an explicit null"
        case .eraseKeepsNames: "an erase's wipe leaves the names table, so the storage keys it holds (the arguments the app sent) stay in the file"
        case .eraseMarkBeforeCheckpoint: "an erase's mark is deleted once its wipe commits though its checkpoint failed, so a power loss may bring back the erased rows"
        case .checkpointOnlyAtThreshold: "a drain checkpoints only when the WAL holds exactly the pages a checkpoint waits for, so one past them leaves the log growing"
        case .commitEndsLaterWipe: "a drain that commits ends the wipe an erase asked for while it was in flight, so the erased rows stay readable"
        case .failedWorkOutlivesDrop: "a drain that fails puts its work back though an erase dropped the queue while it was in flight, so erased records reach the image after the erase"
        case .fragmentConditionsHidden: "a selection set caches its fields per type though a fragment it spreads holds an @include or @skip on a variable, so another value of the variable reads the first one's fields"
        case .revivalKeepsDeletedFlag: "a deleted record named again keeps memory's deleted flag, so the check reads it as null"
        case .edgeCopiesNumberedFromLast: "a page joining a connection numbers its edge copies after the last copy in the list, not the highest, so an append after a prepend writes over the prepended edges"
        case .compactionDropsOverlaid: "compaction forgets which records only an optimistic layer holds, so a record the layer created reads as missing"
        case .failedDrainDropsTouches: "a failed drain drops the names it was to stamp as used, so rows read in that launch age out a launch early"
        case .owedEraseCheckpointPassive: "an erase's owed checkpoint runs passive when a later drain pays it, so the erased pages stay in the WAL"
        case .collectionLeavesOverlay: "collection sweeps the base but leaves the optimistic overlay's merged copies, so the UI sees root fields and records memory no longer holds"
        case .defaultExpirationIgnored: "a check given no expiration ignores the store's default expiration, so data past it reads fresh"
        case .defaultExpirationOverrides: "the store's default expiration overrides the expiration a check brings"
        case .explicitNullTakesDefault: "a variable given as an explicit null takes its default value"
        case .undeclaredVariablesKept: "variables the operation does not declare stay in its variables and its identity"
        case .missingLimitOffByOne: "a read's list of missing places holds 21 places, one past its limit"
        case .negativeZeroReadAsZero: "a Float written `-0` reads as 0.0, losing its sign"
        case .typenameAliasIgnored: "ingest looks for an object's type name under `__typename` only, so an abstract object typed by an aliased `__typename` is refused"
        case .spreadCacheDropsCondition: "a fragment spread a second time drops its type condition, so its fields apply to every type there"
        case .zeroSignIgnored: "a commit compares doubles by `==`, so a Float that turns from -0.0 to 0.0 (or back) keeps its old sign"
        case .absentConditionKeeps: "a condition variable given as null lets its field in under @include and @skip alike, though null counts as false"
        case .idIntKeyedAsString: "an ID variable given as an integer is keyed as a string (4 as \"4\"), though storage keys keep it as the app sent it"
        case .nestedInputNotCoerced: "an input object given whole as a variable keeps its fields as given: a single value for a list is no list of one"
        case .markSkipsBaseOfOverlaid: "collection marks only the overlay's version of a record a layer touches, so what only its base links to is swept"
        case .stringsCompareCanonically: "a commit compares a record's text by Swift's `==`, so a value renewed into its Unicode twin keeps its old bytes"
        case .errorsOnlyStampsFetch: "a response with errors and no data stamps its operation's fetch time, so a check reads stale data as fresh"
        case .nullNamedOnlyExactly: "a null left at a non-null place counts as propagated only when an error names exactly that place, so an error below it gets the response refused"
        case .failedWorkRequeuedBehind: "a failed drain puts its work back behind what was queued while it was in flight, so older data is written over newer"
        case .boundIgnoresInFlight: "the writer's bound leaves out the items a drain has in flight, so it holds more than its bound while one runs"
        case .overflowKeepsEpoch: "an overflow drops the queue without moving its epoch, so a drain in flight that fails puts back the work the overflow dropped"
        case .markClearedUnderLaterErase: "a drain that finished an erase deletes the mark though another erase came while it was in flight, so a kill before the next drain keeps the second erase's rows"
        case .eraseCheckpointOnAnyWipe: "an overflow's wipe gets an erase's truncating checkpoint, and a failed one leaves the writer retrying for no erase"
        case .pendingKeysSkipInFlight: "the writer's pending keys leave out a drain in flight, so collection during it sweeps records only that drain holds, and a failed drain leaves reads the older rows"
        case .clockSetBackKeepsFresh: "a fetch stamped after now (the clock was set back) stays fresh for as long as the clock takes to pass it, as if its age were negative"
        }
    }
}

/// Whether this build can switch mutants on.
///
/// A mutant is switched on per store and per image (their configurations carry it), never
/// process-wide, so tests running in parallel do not see each other's mutants.
package enum Mutants {
    #if BATON_MUTANTS
    /// True in builds that can switch mutants on.
    package static let available = true
    #else
    /// True in builds that can switch mutants on.
    package static let available = false
    #endif
}

extension Optional where Wrapped == Mutant {
    /// True when this configured mutant is `mutant` and the build has mutants at all.
    @inline(__always)
    package func isOn(_ mutant: Mutant) -> Bool {
        #if BATON_MUTANTS
        self == mutant
        #else
        false
        #endif
    }
}

extension Mutant {
    /// Whether two values print alike when their text is compared by Swift's `==` (canonical
    /// equivalence): the comparison `stringsCompareCanonically` puts in place of the store's
    /// byte comparison.
    static func canonicallyEqual<T>(_ a: T, _ b: T) -> Bool {
        String(describing: a) == String(describing: b)
    }

    /// Whether two values print alike once negative zero prints as zero: the comparison
    /// `zeroSignIgnored` puts in place of the store's comparison of a double's bits.
    static func equalButForZeroSign<T>(_ a: T, _ b: T) -> Bool {
        func unsigned(_ value: T) -> String {
            String(describing: value).replacingOccurrences(of: "double(-0.0)", with: "double(0.0)")
        }
        return unsigned(a) == unsigned(b)
    }
}
