package telegram

import (
	"testing"
	"time"
)

func TestParseLimits(t *testing.T) {
	var c Config
	if err := c.ParseLimits("chat=10ms, group=200/1s,global=3000/1s"); err != nil {
		t.Fatal(err)
	}
	if c.ChatInterval != 10*time.Millisecond || c.GroupLimit != 200 || c.GroupWindow != time.Second ||
		c.GlobalLimit != 3000 || c.GlobalWindow != time.Second {
		t.Fatalf("parsed %+v", c)
	}
	c = Config{}
	if err := c.ParseLimits("global=60/2s"); err != nil || c.GlobalLimit != 60 || c.GlobalWindow != 2*time.Second || c.ChatInterval != 0 {
		t.Fatalf("a subset: %+v, %v", c, err)
	}
	for _, bad := range []string{"", "chat", "chat=0s", "chat=x", "group=20", "group=0/1m", "group=20/x", "global=-1/1s", "speed=1/1s"} {
		var c Config
		if err := c.ParseLimits(bad); err == nil {
			t.Errorf("%q accepted: %+v", bad, c)
		}
	}
}
