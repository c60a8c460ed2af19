package reply

// SlotInitiative is the chat's turn-order status message (Reply.Slot):
// one per chat, edited in place as the order changes.
const SlotInitiative = "initiative"

// ButtonPress is the Kind of a button whose Action the adapter hands to
// Press as it is (the turn order's ▶ next and ⏹ end): the core resolves
// it by its kind (command.Router.HandleAction).
const ButtonPress = "press"
