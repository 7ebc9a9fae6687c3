"""The rules of a tournament as plain Python (no Django): who sits at which table in
which seat (``swiss``, ``roundrobin``, ``knockout``, ``ladder``), and how the entrants
stand (``standings``). The Django side (``tournaments.running``) reads the games into
these and writes back what they decide."""
