package configs

import "zaria/adapters/web"

// webEnv are the web companion's environment overrides.
func (c *Config) webEnv() map[string]*string {
	return map[string]*string{
		"ZARIA_WEB_LISTEN":            &c.Web.Listen,
		"ZARIA_WEB_URL":               &c.Web.URL,
		"ZARIA_WEB_TELEGRAM_JS":       &c.Web.TelegramJS,
		"ZARIA_WEB_TELEGRAM_APP":      &c.Web.TelegramApp,
		"ZARIA_WEB_MATRIX_OPENID_URL": &c.Web.MatrixOpenIDURL,
	}
}

// webDefaults are the companion's own defaults (web.Defaults, their one
// home), shown by Default.
func webDefaults() web.Config { return web.Defaults() }
