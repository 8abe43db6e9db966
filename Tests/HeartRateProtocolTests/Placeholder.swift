// placeholder: replaced by the module's owner
