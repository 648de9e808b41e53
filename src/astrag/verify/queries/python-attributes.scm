; Attribute accesses the checker judges: every `x.y` (the frontend leaves reads on self/cls
; and on local variables out of its facts). A callee's own attribute is a call, judged as one.
(attribute
  attribute: (identifier) @name) @access
