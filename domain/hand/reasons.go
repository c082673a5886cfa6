package hand

// ReasonInvalidCategory is the reason (extensions.reason) of the error of a
// category name that names none: part of the API, so it never changes.
const ReasonInvalidCategory = "INVALID_CATEGORY"
