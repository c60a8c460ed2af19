package sheet

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"zaria/core"
	"zaria/core/command"
	"zaria/core/fold"
	"zaria/core/initiative"
	"zaria/core/reply"
)

// Hit points and conditions are ordinary values of a sheet, under names
// every language finds (vitalSynonyms): "pv" = "12/12" (current/maximum,
// or a lone number) and "estado" = "envenenado, aturdido (2)" (each
// condition with the rounds it still lasts). So they are exported,
// imported and moved with the sheet like any value.
const (
	hpName        = "pv"
	conditionName = "estado"
)

// vitalSynonyms are the names of hit points and conditions in es, en, el.
func vitalSynonyms() [][]string {
	return [][]string{
		{"pv", "hp", "ζωή", "vida"},
		{"estado", "estados", "condition", "conditions", "κατάσταση", "καταστάσεις"},
	}
}

// IsHitPoints reports whether name is what /pj reads as hit points, in
// any language ("pv", "hp", "ζωή", "vida"): for the surfaces that show
// them otherwise than as text (the phone page's stepper).
func IsHitPoints(name string) bool {
	for _, n := range vitalSynonyms()[0] {
		if fold.Key(n) == fold.Key(name) {
			return true
		}
	}
	return false
}

// IsConditions reports whether name is what /pj reads as conditions.
func IsConditions(name string) bool { return isConditionWord(name) }

// ParseHitPoints reads a hit points value as /pj does: "9/12" (current
// and maximum) or "9".
func ParseHitPoints(text string) (cur, maxV int, hasMax, ok bool) { return parseMax(text) }

// isConditionWord reports whether w names the conditions value.
func isConditionWord(w string) bool {
	for _, n := range vitalSynonyms()[1] {
		if fold.Key(n) == fold.Key(w) {
			return true
		}
	}
	return false
}

// parseMax reads "9/12" (current and maximum) or "9" (no maximum).
func parseMax(text string) (cur int, maxV int, hasMax bool, ok bool) {
	a, b, cut := strings.Cut(strings.TrimSpace(text), "/")
	cur, ok = parseInt(a)
	if !ok {
		return 0, 0, false, false
	}
	if !cut {
		return cur, 0, false, true
	}
	maxV, ok = parseInt(b)
	return cur, maxV, ok, ok
}

// Vitals implements initiative.Fighters: the hit points and conditions of
// the chat's character name.
func (s *Service) Vitals(ctx context.Context, chat core.ChatRef, name string) (initiative.Vitals, bool, error) {
	c, err := s.store.Character(ctx, chat, NameKey(name))
	if errors.Is(err, core.ErrNotFound) {
		return initiative.Vitals{}, false, nil
	}
	if err != nil {
		return initiative.Vitals{}, false, internal("get", err)
	}
	var v initiative.Vitals
	if i := s.valueIndex(c, hpName); i >= 0 {
		if cur, m, hasMax, ok := parseMax(c.Values[i].Text); ok {
			v.HP = &cur
			if hasMax {
				v.MaxHP = &m
			}
		}
	}
	if i := s.valueIndex(c, conditionName); i >= 0 {
		v.Conditions = initiative.ParseConditions(c.Values[i].Text)
	}
	return v, true, nil
}

// TickConditions implements initiative.Fighters: on the character's turn
// the conditions with a length lose a round; those reaching 0 go.
func (s *Service) TickConditions(ctx context.Context, chat core.ChatRef, name string) ([]string, error) {
	c, err := s.store.Character(ctx, chat, NameKey(name))
	if errors.Is(err, core.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, internal("get", err)
	}
	var expired []string
	_, err = s.store.EditCharacter(ctx, chat, c.ID, func(c *Character) error {
		expired = nil
		i := s.valueIndex(*c, conditionName)
		if i < 0 {
			return nil
		}
		var kept []initiative.Condition
		changed := false
		for _, k := range initiative.ParseConditions(c.Values[i].Text) {
			if k.Rounds > 0 {
				changed = true
				if k.Rounds--; k.Rounds == 0 {
					expired = append(expired, k.Name)
					continue
				}
			}
			kept = append(kept, k)
		}
		if !changed {
			return nil
		}
		if len(kept) == 0 {
			c.Values = append(c.Values[:i:i], c.Values[i+1:]...)
		} else {
			c.Values[i].Text = initiative.FormatConditions(kept)
		}
		c.Updated = s.now()
		return nil
	})
	if err != nil && !errors.Is(err, core.ErrNotFound) {
		return nil, internal("tick conditions", err)
	}
	return expired, nil
}

// isDelta reports whether w reads as a relative change: +5, -3, -2d6.
func isDelta(w string) bool {
	return len(w) > 1 && (w[0] == '+' || w[0] == '-') || strings.HasPrefix(w, "−") && len(w) > len("−")
}

// pjChange is /pj [@who] NAME ±N (or ±dice): the value changes by that
// much, clamped to 0..max when it has a maximum ("12/12").
func (s *Service) pjChange(ctx context.Context, req *command.Request, who, name, delta string) (*reply.Reply, error) {
	neg := strings.HasPrefix(delta, "-") || strings.HasPrefix(delta, "−")
	expr := strings.TrimLeft(strings.TrimPrefix(delta, "−"), "+-")
	rep := &reply.Reply{}
	d, err := strconv.Atoi(expr)
	if err != nil {
		if expr == "" || strings.ContainsAny(expr, "+-") && !strings.ContainsAny(expr, "dDδ") {
			return nil, command.Errorf("character.change_bad", "got", fold.Cut(delta, 20))
		}
		rolled, ok := req.RedispatchRoll(ctx, "/roll "+expr)
		if !ok || rolled == nil || rolled.Error || rolled.Check == nil || rolled.Check.Total == nil {
			if rolled != nil && rolled.Error {
				return rolled, nil
			}
			return nil, command.Errorf("character.change_bad", "got", fold.Cut(delta, 20))
		}
		d = *rolled.Check.Total
		rep.Lines = append(rep.Lines, rolled.Lines...)
		rep.Check = rolled.Check
	}
	if d > 1_000_000 {
		return nil, command.Errorf("character.change_bad", "got", fold.Cut(delta, 20))
	}
	if neg {
		d = -d
	}
	var before, after, maxV int
	var hasMax bool
	var shown string
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		i := s.valueIndex(*c, name)
		if i < 0 {
			return unknownValue(*c, name)
		}
		v := &c.Values[i]
		cur, m, hm, ok := parseMax(v.Text)
		if !ok {
			return command.Errorf("character.change_not_number", "name", v.Name, "value", v.Text, "character", c.Name)
		}
		before, maxV, hasMax, shown = cur, m, hm, v.Name
		after = cur + d
		if hasMax {
			after = min(max(after, 0), maxV)
			v.Text = strconv.Itoa(after) + "/" + strconv.Itoa(maxV)
		} else {
			v.Text = strconv.Itoa(after)
		}
		return CheckValueText(v.Text, s.lim.ValueLen)
	})
	if err != nil {
		return nil, err
	}
	icon := "✏️"
	for _, n := range vitalSynonyms()[0] {
		if fold.Key(n) == fold.Key(shown) {
			icon = "❤️"
		}
	}
	if hasMax {
		rep.Add(reply.T(req.T("character.value_changed_max", "icon", icon, "character", c.Name, "name", shown,
			"old", before, "new", after, "max", maxV)))
	} else {
		rep.Add(reply.T(req.T("character.value_changed", "icon", icon, "character", c.Name, "name", shown,
			"old", before, "new", after)))
	}
	rep.Data = map[string]any{"changed": map[string]any{"character": c.Name, "value": shown, "old": before, "new": after}}
	if hasMax {
		rep.Data["changed"].(map[string]any)["max"] = maxV
	}
	return rep, nil
}

// pjCondition is /pj [@who] estado +envenenado [rondas] | -envenenado.
func (s *Service) pjCondition(ctx context.Context, req *command.Request, who string, args []string) (*reply.Reply, error) {
	if len(args) == 0 {
		return nil, command.Errorf("character.condition_usage")
	}
	ch, err := initiative.ParseCondition(args)
	if err != nil {
		if ue, ok := command.AsUserError(err); ok && ue.Key == "init.condition_usage" {
			return nil, command.Errorf("character.condition_usage")
		}
		return nil, err
	}
	var list []initiative.Condition
	c, err := s.edit(ctx, req.Msg.Chat, req.Msg.From.ID, req.IsGM, who, func(c *Character) error {
		i := s.valueIndex(*c, conditionName)
		var cur []initiative.Condition
		if i >= 0 {
			cur = initiative.ParseConditions(c.Values[i].Text)
		}
		var err error
		if list, err = ch.Apply(cur); err != nil {
			return err
		}
		switch {
		case len(list) == 0 && i >= 0:
			c.Values = append(c.Values[:i:i], c.Values[i+1:]...)
			return nil
		case len(list) == 0:
			return nil
		case i >= 0:
			c.Values[i].Text = initiative.FormatConditions(list)
			return CheckValueText(c.Values[i].Text, s.lim.ValueLen)
		default:
			return s.setValue(c, conditionName, initiative.FormatConditions(list))
		}
	})
	if err != nil {
		return nil, err
	}
	rep := reply.Text(ch.Said(req, c.Name))
	rep.Data = map[string]any{"changed": map[string]any{"character": c.Name, "conditions": list}}
	return rep, nil
}
