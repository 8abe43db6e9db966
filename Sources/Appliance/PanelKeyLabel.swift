import Panel

// The panel module and the core both name a `KeypadKey`; this file sees only the panel's, so the rest of
// the daemon can cross between them by label ("5", "*", "#") without naming either.

/// The printed label of a key the panel reported.
func label(ofPanelKey key: KeypadKey) -> String { key.description }

/// The panel's key printed `label`, for the simulated panel's hands.
func panelAction(pressing label: String, down: Bool) -> PanelAction? {
    guard let key = KeypadKey(label) else { return nil }
    return down ? .keyDown(key) : .keyUp(key)
}
