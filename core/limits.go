package core

// MaxDocumentBytes is the size limit of a file sent with a command that
// takes one (TakesFile: /importar), 256 KiB: a chat's export at its quotas
// fits it. It is the default of the core's import (transfer.Options) and
// of the adapters, which refuse a larger attached file before downloading
// it; main gives both the same number.
const MaxDocumentBytes = 256 << 10
