package command

import (
	"strings"
	"time"
)

// TimeZoneOption is the chat setting that holds its time zone, an IANA
// name (/ajustes zona Europe/Madrid).
const TimeZoneOption = "timezone"

// langZones is the time zone of a chat that set none, by its language:
// the table of a Spanish group is in Spain, a Greek one's in Greece.
var langZones = map[string]string{"es": "Europe/Madrid", "el": "Europe/Athens"}

// LoadZone reads a time zone name as typed: "Europe/Madrid",
// "europe/madrid", "UTC". ok is false for a name the system does not
// know (and for "Local", which is the server's, not the table's).
func LoadZone(name string) (*time.Location, bool) {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, "local") || len(name) > 64 {
		return nil, false
	}
	if loc, err := time.LoadLocation(name); err == nil {
		return loc, true
	}
	// Typed without its capitals: "europe/madrid", "america/new_york".
	parts := strings.Split(name, "/")
	for i, p := range parts {
		words := strings.Split(strings.ToLower(p), "_")
		for j, w := range words {
			if w != "" {
				words[j] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		parts[i] = strings.Join(words, "_")
	}
	if loc, err := time.LoadLocation(strings.Join(parts, "/")); err == nil {
		return loc, true
	}
	return nil, false
}

// Location is the chat's time zone: the one it set, else its language's
// (es: Europe/Madrid, el: Europe/Athens), else the router's (UTC by
// default). Every time a reply shows is in it, and names it (ZoneName).
func (r *Request) Location() *time.Location {
	if name := r.Settings.Options[TimeZoneOption]; name != "" {
		if loc, ok := LoadZone(name); ok {
			return loc
		}
	}
	if name, ok := langZones[r.Lang]; ok {
		if loc, ok := LoadZone(name); ok {
			return loc
		}
	}
	if r.router != nil && r.router.cfg.TimeZone != nil {
		return r.router.cfg.TimeZone
	}
	return time.UTC
}
