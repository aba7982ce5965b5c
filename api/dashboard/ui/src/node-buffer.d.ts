// The dashboard takes its record types from the features' response shapes (records.ts), whose imports reach
// core/capture-spec.ts: its CaptureOutput holds Node's Buffer. The dashboard never handles one; this names it for
// the type checker only, so Node's own globals (@types/node) stay out of the browser code.
type Buffer = Uint8Array;
