; Field accesses the checker judges: every `x.f` with a plain field name. A method's own
; name is a call, judged as one; `X.class` and `a.length` of an array are left to the rules.
(field_access
  field: (identifier) @name) @access
