## Errors and limits

button-invalid = This button is no longer valid.
rate-limited = Too many requests. Please slow down.
error-generic = Something went wrong on our side. Please try again.
