//! Tests of the chart engine on hand-written chart parts.
