package reply

// ActionKind says what pressing a button does.
type ActionKind string

const (
	// ActAgain runs Action.Command once more, as whoever presses it.
	ActAgain ActionKind = "again"
	// ActOdds shows the odds and the distribution of the roll Action.Command
	// with its result Action.Actual marked, without rolling anything.
	ActOdds ActionKind = "odds"
	// ActRun runs the pad button Action.Button (a stored command) as
	// whoever presses it, if they may press it.
	ActRun ActionKind = "run"
)

// Action is the meaning of a button, resolved by the core
// (command.Router.Press). Adapters only draw the button and hand the
// Action back when it is pressed; they never build a command from it.
//
// An Action is small enough to keep: Again and Odds carry the command
// text (at most the router's input limit); Run carries only the stored
// button's id, so a press after a restart, a reorder or an edit runs what
// the pad holds then (or says the button is gone).
type Action struct {
	Kind ActionKind
	// Command is the normalized command of the reply ("/roll 2d6+1 vs 8"),
	// for Again and Odds.
	Command string
	// Actual is the total the roll gave, marked on the Odds chart; nil
	// when the roll has no single total.
	Actual *int64
	// Button is the id of a pad button, for Run. Ids are never reused.
	Button int64
	// Values, for Run, fill the button's missing values ({objetivo}) in
	// order: the choices its presser made when the core asked for them
	// (a reply whose buttons are Run actions with one more value each).
	// Adapters keep them with the button and hand them back unchanged.
	Values []string
}

// ButtonRun is the Kind of a pad button (its Action is an ActRun).
const ButtonRun = "run"
