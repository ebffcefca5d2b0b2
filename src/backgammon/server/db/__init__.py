"""The database: connection, tables, migrations, queries, group commit and the event bus."""
