/// How an rMSSD value was computed: the export says so beside the value, so values from different methods are
/// never compared unawares.
public enum RMSSDMethod: String, Hashable, Sendable, CaseIterable {
    /// Over the pairs of accepted intervals adjacent as received (spec §5.1, "successive valid intervals").
    case adjacentPairs = "adjacent_pairs"
    /// Over consecutive entries of the accepted list, across removed beats: how the box computed it before, kept
    /// only for a stored morning whose raw RR could not reproduce its window.
    case acceptedList = "accepted_list"
    /// Taken from another tool's export (a history import); its method is that tool's.
    case external
}
