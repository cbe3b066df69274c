# /import: a catalog file sent to the operator group (docs/catalog.md).
op-import-usage = Send the catalog as a .csv document with the caption /import. The columns: docs/catalog.md.
op-import-unreadable = Nothing was imported: the file could not be read as UTF-8 text of at most 2 MB.
op-import-no-right = Importing a catalog needs an owner, or an admin with the "Add new admins" right. Nothing was changed.
op-import-refused = Nothing was imported: { $count } { $count ->
    [one] row is
   *[other] rows are
} refused.
    { $rows }
op-import-planned = Dry run: { $created } to create, { $changed } to change, { $unchanged } unchanged. { $skus }
op-import-applied = Imported: { $created } created, { $changed } changed, { $unchanged } unchanged. { $skus }
op-import-conflicts = Imported: { $created } created, { $changed } changed. Changed meanwhile, not applied: { $conflicts }. Send the file again.
btn-import = Import
