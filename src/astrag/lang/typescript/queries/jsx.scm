; JSX captures for the tsx grammar, appended to typescript.scm (the typescript grammar has no
; JSX nodes, so they cannot live there). javascript.scm carries the same patterns inline.
(jsx_expression [(identifier) (member_expression)] @reference.read)

; JSX: a Capitalized or dotted tag names a component (the frontend drops intrinsic tags).
(jsx_opening_element name: [(identifier) (member_expression)] @reference.jsx)
(jsx_self_closing_element name: [(identifier) (member_expression)] @reference.jsx)
