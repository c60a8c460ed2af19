package sqlite

// SchemaVersion is the schema version this binary writes: the number of its
// last migration.
func SchemaVersion() int {
	ms, err := loadMigrations(migrationFiles)
	if err != nil {
		return 0
	}
	return len(ms)
}
