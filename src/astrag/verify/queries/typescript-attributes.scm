; Member accesses the checker judges: every `x.y` with a plain property name (`#private`
; names and computed `x[k]` are left alone). A callee's own member is a call, judged as one.
(member_expression
  property: (property_identifier) @name) @access
