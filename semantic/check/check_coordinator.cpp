// The coordinator (see check_coordinator.h).
#include "semantic/check/check_coordinator.h"

#include "semantic/check/body_checker.h"

namespace itc::semantic::check {

void checkCoordinator(CheckState& state) {
    if (!state.coordinator)
        return;
    BodyChecker body(state, BodyKind::Coordinator, nullptr, &state.out.exprTypes);
    body.setArgsName(state.coordinator->argsName.text);
    body.checkBlock(state.coordinator->body);
    state.out.coordinatorLocals = body.localTypes();
}

} // namespace itc::semantic::check
