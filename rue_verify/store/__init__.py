"""Files and stores: whole-or-nothing writes (`files`), the resumable result store a sweep appends to
(`result_store`), and your own files loaded as the extension points load them (`userfiles`)."""
