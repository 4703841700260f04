"""The HTTP and WebSocket routes, one ``APIRouter`` per resource."""
