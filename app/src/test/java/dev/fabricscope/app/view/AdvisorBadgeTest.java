package dev.fabricscope.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.fabricscope.advisor.api.Outcome;
import org.junit.jupiter.api.Test;

/** The Advisor table's badges: a tick and green for ok only; unknown is a question mark, never a pass. */
class AdvisorBadgeTest {

    @Test
    void onlyOkLooksLikeAPass() {
        for (Outcome o : Outcome.values()) {
            String badge = AdvisorView.icon(o.json()) + " " + AdvisorView.badgeStyle(o.json());
            if (o == Outcome.OK) {
                assertEquals("✔ ok", badge);
            } else {
                assertNotEquals("ok", AdvisorView.badgeStyle(o.json()), o + " is coloured as a pass");
                assertNotEquals("✔", AdvisorView.icon(o.json()), o + " is ticked as a pass");
            }
        }
        assertEquals("? info", AdvisorView.icon("unknown") + " " + AdvisorView.badgeStyle("unknown"));
    }
}
