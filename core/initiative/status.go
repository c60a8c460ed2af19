package initiative

import (
	"context"
	"strconv"

	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/reply"
)

// withStatus gives rep the status message of o (rep.Status) and the order
// as data (rep.Data["initiative"], for --json).
func (s *Service) withStatus(ctx context.Context, req *command.Request, o Order, rep *reply.Reply) *reply.Reply {
	st := &reply.Reply{Slot: reply.SlotInitiative}
	title := req.T("init.status_title")
	if o.Round > 0 {
		title = req.T("init.status_round", "round", o.Round)
	}
	st.Add(reply.B("⚔️ " + title))
	data := dataOf(o)
	for i, c := range o.Combatants {
		mark := "   "
		if c.Key == o.Current {
			mark = "▶ "
		}
		line := reply.Line{reply.T(mark + strconv.Itoa(c.Init) + " "), reply.B(fold.Clean(c.Name))}
		v, err := s.vitals(ctx, req.Msg.Chat, c)
		if err != nil {
			s.opt.Logger.ErrorContext(ctx, "vitals", "chat", req.Msg.Chat.String(), "err", err)
		}
		if v.HP != nil {
			data.Combatants[i].HP = v.HP
			data.Combatants[i].MaxHP = v.MaxHP
		}
		data.Combatants[i].Conditions = v.Conditions
		// As the table sees it: an NPC's hit points are the GM's, the
		// table sees only whether it is down or badly hurt.
		table := seen(o, c, v, Viewer{})
		if table.HP != "" {
			line = append(line, reply.T(" · ❤️ "+table.HP))
		}
		if table.Mark != "" {
			line = append(line, reply.T(" · "+table.Mark))
		}
		if len(v.Conditions) > 0 {
			line = append(line, reply.I(" · "+fold.Clean(FormatConditions(v.Conditions))))
		}
		st.Lines = append(st.Lines, line)
	}
	if len(o.Combatants) == 0 {
		st.Add(reply.I(req.T("init.status_empty")))
	}
	data.Fallen, data.Left = s.summary(o, func(c Combatant) bool {
		return fallen(Vitals{HP: data.Combatants[o.Index(c.Key)].HP})
	})
	st.Buttons = []reply.Button{
		{Kind: reply.ButtonPress, Label: "▶ " + req.T("init.button_next"), Symbol: "▶️", Action: &reply.Action{Kind: ActNext}},
		{Kind: reply.ButtonPress, Label: "⏹ " + req.T("init.button_end"), Symbol: "⏹️", Action: &reply.Action{Kind: ActEnd}},
	}
	rep.Status = st
	if rep.Data == nil {
		rep.Data = map[string]any{}
	}
	rep.Data["initiative"] = data
	return rep
}

// Data is the turn order as --json shows it.
type Data struct {
	Open       bool            `json:"open"`
	Round      int             `json:"round"`
	Current    string          `json:"current,omitempty"`
	Combatants []DataCombatant `json:"combatants"`
	// Fallen are who fell (at 0 hit points, or removed while down), Left
	// who left the fight standing.
	Fallen []string `json:"fallen,omitempty"`
	Left   []string `json:"left,omitempty"`
}

// DataCombatant is one combatant in Data.
type DataCombatant struct {
	Name       string      `json:"name"`
	Init       int         `json:"init"`
	Player     string      `json:"player,omitempty"`
	HP         *int        `json:"hp,omitempty"`
	MaxHP      *int        `json:"max_hp,omitempty"`
	Conditions []Condition `json:"conditions,omitempty"`
}

func dataOf(o Order) Data {
	d := Data{Open: o.Open, Round: o.Round, Combatants: make([]DataCombatant, len(o.Combatants))}
	for i, c := range o.Combatants {
		if c.Key == o.Current {
			d.Current = c.Name
		}
		d.Combatants[i] = DataCombatant{Name: c.Name, Init: c.Init, Player: c.Owner, HP: c.HP, MaxHP: c.MaxHP, Conditions: c.Conditions}
	}
	return d
}
